# bash completion for `ridgeline`, generated at build time from its --help output
# (gen-completion.sh), so subcommands and options added later complete without edits.
set(_completion ${RIDGELINE_GENERATED_DIR}/completion/ridgeline)
add_custom_command(OUTPUT ${_completion}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${RIDGELINE_GENERATED_DIR}/completion
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/gen-completion.sh $<TARGET_FILE:ridgeline> ${_completion}
    DEPENDS ridgeline ${CMAKE_CURRENT_LIST_DIR}/gen-completion.sh ${CMAKE_CURRENT_LIST_DIR}/ridgeline-complete.bash
            ${RIDGELINE_INSTALLER_DIR}/clihelp.awk
    COMMENT "Generating the bash completion of ridgeline"
    VERBATIM)
add_custom_target(ridgeline-completion ALL DEPENDS ${_completion})
install(FILES ${_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
