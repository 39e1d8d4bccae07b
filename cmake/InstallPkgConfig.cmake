# The installed pkg-config file (cmake/petsc-hjacobi.pc.in). Included after hjacobi_petsc_config().
# Its own paths are relative to ${pcfiledir}, so `cmake --install build --prefix P` (a prefix other than the
# configured one) and moving P afterwards both work; only an absolute CMAKE_INSTALL_LIBDIR/INCLUDEDIR, which names
# one place on purpose, is written as it is.
set(_hj_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(HJACOBI_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(HJACOBI_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  # from <prefix>/<libdir>/pkgconfig back to <prefix>: "../.." for lib, "../../.." for lib/x86_64-linux-gnu
  file(RELATIVE_PATH _hj_up "/_hj_root/${_hj_pcdir}" "/_hj_root")
  string(REGEX REPLACE "/$" "" _hj_up "${_hj_up}") # CMake writes "../../"
  set(HJACOBI_PC_PREFIX "\${pcfiledir}/${_hj_up}")
  set(HJACOBI_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(HJACOBI_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(HJACOBI_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# PETSc's flags as its pkg-config file gave them (the same ones the library was compiled and linked with), plus a
# run path to its libraries: PETSc outside the loader's default paths (/opt/petsc-cuda) must load without
# LD_LIBRARY_PATH
list(JOIN PETSC_CFLAGS " " HJACOBI_PC_PETSC_CFLAGS)
set(_hj_libs ${PETSC_LDFLAGS})
foreach(_hj_d IN LISTS PETSC_LIBRARY_DIRS)
  list(APPEND _hj_libs "-Wl,-rpath,${_hj_d}")
endforeach()
list(JOIN _hj_libs " " HJACOBI_PC_PETSC_LIBS)
configure_file(${CMAKE_CURRENT_LIST_DIR}/petsc-hjacobi.pc.in ${PROJECT_BINARY_DIR}/petsc-hjacobi.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/petsc-hjacobi.pc DESTINATION ${_hj_pcdir})
