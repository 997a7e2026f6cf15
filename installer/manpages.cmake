# Manual pages ridgeline(1) and ridgeline-ui(1), made at build time by help2man from the same
# text the programs print for --help (installer/man/gen-manpage.sh); extra sections (ENVIRONMENT,
# FILES, EXAMPLES, SEE ALSO) come from installer/man/*.h2m.
find_program(RIDGELINE_HELP2MAN help2man)
if(NOT RIDGELINE_HELP2MAN)
    message(WARNING "help2man not found (Debian: help2man): no manual pages are built or installed")
    return()
endif()

set(_man_dir ${RIDGELINE_GENERATED_DIR}/man)
set(_man_script ${RIDGELINE_INSTALLER_DIR}/man/gen-manpage.sh)
set(_man_helpers ${_man_script} ${RIDGELINE_INSTALLER_DIR}/man/subsection.awk ${RIDGELINE_INSTALLER_DIR}/clihelp.awk)
set(_man_pages ${_man_dir}/ridgeline.1.gz)
add_custom_command(OUTPUT ${_man_dir}/ridgeline.1.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_man_dir}
    COMMAND bash ${_man_script} $<TARGET_FILE:ridgeline> ${_man_dir}/ridgeline.1.gz
            ${RIDGELINE_INSTALLER_DIR}/man/ridgeline.h2m
            "GPU kernel profiler and roofline analyser (command line)" --subcommands
    DEPENDS ridgeline ${_man_helpers} ${RIDGELINE_INSTALLER_DIR}/man/ridgeline.h2m
    COMMENT "Generating the manual page ridgeline(1)"
    VERBATIM)
if(TARGET ridgeline-ui)
    add_custom_command(OUTPUT ${_man_dir}/ridgeline-ui.1.gz
        COMMAND ${CMAKE_COMMAND} -E make_directory ${_man_dir}
        COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
                bash ${_man_script} $<TARGET_FILE:ridgeline-ui> ${_man_dir}/ridgeline-ui.1.gz
                ${RIDGELINE_INSTALLER_DIR}/man/ridgeline-ui.h2m
                "GPU kernel profiler and roofline analyser (desktop app)"
        DEPENDS ridgeline-ui ${_man_helpers} ${RIDGELINE_INSTALLER_DIR}/man/ridgeline-ui.h2m
        COMMENT "Generating the manual page ridgeline-ui(1)"
        VERBATIM)
    list(APPEND _man_pages ${_man_dir}/ridgeline-ui.1.gz)
endif()
add_custom_target(ridgeline-manpages ALL DEPENDS ${_man_pages})
install(FILES ${_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
