# hicolor PNG icons rendered from resources/icons/ridgeline.svg at build time (rsvg-convert,
# Debian librsvg2-bin); without it only the scalable SVG is installed.
set(RIDGELINE_ICON_SIZES 16 22 24 32 48 64 128 256 512)
find_program(RIDGELINE_RSVG_CONVERT rsvg-convert)
if(RIDGELINE_RSVG_CONVERT)
    set(_ridgeline_svg ${PROJECT_SOURCE_DIR}/resources/icons/ridgeline.svg)
    set(_ridgeline_pngs)
    foreach(size IN LISTS RIDGELINE_ICON_SIZES)
        set(_dir ${RIDGELINE_GENERATED_DIR}/icons/hicolor/${size}x${size}/apps)
        add_custom_command(OUTPUT ${_dir}/ridgeline.png
            COMMAND ${CMAKE_COMMAND} -E make_directory ${_dir}
            COMMAND ${RIDGELINE_RSVG_CONVERT} --width=${size} --height=${size} --keep-aspect-ratio
                    --output=${_dir}/ridgeline.png ${_ridgeline_svg}
            DEPENDS ${_ridgeline_svg}
            COMMENT "Rendering the ${size}x${size} icon"
            VERBATIM)
        list(APPEND _ridgeline_pngs ${_dir}/ridgeline.png)
        install(FILES ${_dir}/ridgeline.png DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
    endforeach()
    add_custom_target(ridgeline-icons ALL DEPENDS ${_ridgeline_pngs})
else()
    message(WARNING "rsvg-convert not found (Debian: librsvg2-bin): only the SVG icon is installed")
endif()
