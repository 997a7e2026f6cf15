// SPDX-License-Identifier: MIT
// `ridgeline`: the headless command line. Wires subcommands to core; owns no analysis.
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/core/version.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <map>

int main(int argc, char** argv)
{
    using namespace ridgeline::cli;
    CLI::App app { "Ridgeline: GPU kernel profiler and roofline analyser.\n"
                   "Says of every kernel what bounds it and how far it is from its roof.",
        "ridgeline" };
    app.set_version_flag("--version", fmt::format("ridgeline {}", ridgeline::core::kVersion));
    app.require_subcommand(1);
    app.footer(kExitCodeHelp);

    std::map<std::string, Runner> commands;
    commands["capture"] = addCaptureCommand(app);
    commands["ceilings"] = addCeilingsCommand(app);
    commands["check"] = addCheckCommand(app);
    commands["devices"] = addDevicesCommand(app);
    commands["diff"] = addDiffCommand(app);
    commands["export"] = addExportCommand(app);
    commands["import"] = addImportCommand(app);
    commands["merge"] = addMergeCommand(app);
    commands["metrics"] = addMetricsCommand(app);
    commands["report"] = addReportCommand(app);
    commands["summarize"] = addSummarizeCommand(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "ridgeline: " << e.what() << "\nRun 'ridgeline --help' for usage.\n";
        return ExitUsage;
    }
    for (const auto* sub : app.get_subcommands()) {
        if (auto it = commands.find(sub->get_name()); it != commands.end())
            return it->second();
    }
    return fail(ExitInternal, "no subcommand ran");
}
