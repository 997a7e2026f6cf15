# Installation of everything beside the programs (whose install() rules sit next to their
# targets) and the packages: CPack DEB and TGZ. Included once, last, from the top CMakeLists.txt.
#
#   cmake --build build --target package     -> build/packages/ridgeline_<v>-1_amd64.deb
#                                                build/packages/ridgeline-<v>-Linux-x86_64.tar.gz
#
# Installed layout (docs/PACKAGING.md): bin/ridgeline, bin/ridgeline-ui, lib/ridgeline/
# (libridgeline-inject.so, ridgeline-microbench), share/ridgeline/examples, share/applications,
# share/icons/hicolor, share/mime/packages, share/man/man1, share/bash-completion/completions.
# Nothing private is linked, so the programs carry no RPATH and run from any unpacked tarball;
# the launcher finds lib/ridgeline relative to /proc/self/exe.

set(RIDGELINE_INSTALLER_DIR ${CMAKE_CURRENT_LIST_DIR})
set(RIDGELINE_GENERATED_DIR ${CMAKE_BINARY_DIR}/installer)

# The measured-ceiling CUDA microbenchmarks: built only where CUDA is found.
if(TARGET ridgeline-microbench)
    install(TARGETS ridgeline-microbench RUNTIME DESTINATION ${RIDGELINE_PRIVATE_LIBDIR})
endif()

# Example sessions and their provenance.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ridgeline/examples
        FILES_MATCHING PATTERN "*.ridge" PATTERN "README.md")

# Desktop entry, MIME type (the dpkg triggers of desktop-file-utils and shared-mime-info update
# their caches; no maintainer scripts needed) and icons.
install(FILES ${PROJECT_SOURCE_DIR}/resources/ridgeline.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/mime/ridgeline.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/ridgeline.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
include(${RIDGELINE_INSTALLER_DIR}/icons.cmake)

# Manual pages and bash completion, generated from the programs' own --help.
include(${RIDGELINE_INSTALLER_DIR}/manpages.cmake)
include(${RIDGELINE_INSTALLER_DIR}/completion/completion.cmake)

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/PACKAGING.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/ridgeline) # the package's name, not the project's

# ---- CPack ----------------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME ridgeline)
set(CPACK_PACKAGE_VENDOR "Ridgeline")
set(CPACK_PACKAGE_CONTACT "Ridgeline developers <dev@ridgeline.invalid>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "Ridgeline records every kernel, copy and collective of a CUDA program into one SQLite\n"
    "session file (.ridge) and says of each kernel which resource bounds it and how far it is\n"
    "from its roof: a Qt desktop app (ridgeline-ui) and a headless command line (ridgeline).\n"
    "It also imports PyTorch profiler, Nsight Systems and Nsight Compute results.\n"
    ".\n"
    "Viewing, importing and reporting need no GPU software. Capturing a program needs an\n"
    "NVIDIA driver and the CUDA Toolkit 13 (CUPTI, libnvperf_host.so), found at run time in\n"
    "CUDA_HOME, /usr/local/cuda* or the loader path.")
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)

# Tarball: ridgeline-<version>-Linux-<arch>.tar.gz with one top directory, relocatable.
set(CPACK_PACKAGE_FILE_NAME "ridgeline-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)

# Debian package: installed under /usr; Depends computed by dpkg-shlibdeps from the ELF files
# (Qt 6 Core/Gui/Widgets/Charts, libsqlite3-0, libfmt9, zlib, libprotobuf-lite32, libc, ...). libqt6svg6 is added
# by hand: ridgeline-ui loads its SVG icon engine and image format as plugins, which no ELF
# file names. No CUDA dependency: capture finds the toolkit at run time (cuptilocate.h).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}") # the summary is prepended
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(RIDGELINE_BUILD_UI)
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6")
endif()
# CUPTI 13 comes from NVIDIA's CUDA repository (Debian's nvidia-cuda-toolkit is older).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cuda-cupti-13-0 | cuda-toolkit-13-0")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# An injection library linked against a CUPTI outside any package: let dpkg-shlibdeps resolve it
# there (it then adds no dependency for it).
if(RIDGELINE_CUPTI_LIBRARY)
    get_filename_component(_ridgeline_cupti_dir ${RIDGELINE_CUPTI_LIBRARY} DIRECTORY)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${_ridgeline_cupti_dir})
endif()

include(CPack)
