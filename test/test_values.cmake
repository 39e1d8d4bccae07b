# test_values: the value-only refresh of the extraction (same pattern, new values: PCSetUp rewrites the stencil in
# place) equals a fresh PC bit for bit; values that need a box stencil when a star one was extracted do not fit and
# re-extract (label extract). Included from test/CMakeLists.txt.
set(V $<TARGET_FILE:test_values>)
set(VOK -malloc_dump -pc_hjacobi_omega 0.9) # a refreshed PC keeps its omega estimate, a fresh one makes its own: fix omega
# the extraction's PetscInfo (class mat) says how the values were read: INFO mat, one file per rank (hj_expect_test)
set(VNO "hjtest FAIL" "[0-9]+ bytes [A-Za-z_]+\\(\\) at")
function(hj_values_test name np labels)
  hj_expect_test(NAME ${name} NP ${np} INFO mat LABELS "${labels}" MATCH "values refreshed in place" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO} COMMAND ${V} ${VOK} ${ARGN})
endfunction()
hj_values_test(val_1d_periodic 1 "host;extract" -dim 1 -n 41 -periodic -pc_hjacobi_tile 9 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 2)
hj_values_test(val_2d_star 1 "host;extract" -dim 2 -da_grid_x 23 -da_grid_y 17 -pc_hjacobi_tile 6,5 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 3 -steps 3)
hj_values_test(val_2d_box 1 "host;extract" -dim 2 -kind box -n 15 ${T5O2K2})
hj_values_test(val_3d_star 1 "host;extract" -dim 3 -da_grid_x 9 -da_grid_y 8 -da_grid_z 7 ${T4O2K2})
hj_values_test(val_3d_box_periodic 1 "host;extract" -dim 3 -kind box -periodic -n 7 ${T4O2K2})
hj_values_test(val_dof3_2d_box 1 "host;extract;dof" -dof 3 -dim 2 -kind box -n 11 ${T4O2K2})
hj_values_test(val_dof3_3d_periodic 1 "host;extract;dof" -dof 3 -dim 3 -periodic -n 7 ${T4O2K2})
hj_values_test(val_np2_2d_box_on_star 2 "host;extract;mpi" -dim 2 -kind box -da_stencil star -prealloc_only -n 15 ${T5O2K2})
hj_values_test(val_np2_dof3_2d_periodic 2 "host;extract;mpi;dof" -dof 3 -dim 2 -kind box -periodic -n 10 ${T4O2K2})
hj_values_test(val_np4_3d_star 4 "host;extract;mpi" -dim 3 -n 9 ${T4O2K3})
hj_values_test(val_np4_2d_box_dirichlet 4 "host;extract;mpi" -dim 2 -kind box -n 17 -dirichlet_fraction 0.2 ${P2x2} ${T5O2K2})
# constant values, then variable ones in place: the flags are refreshed too (the view at each setup says so)
hj_expect_test(NAME val_constant_then_variable INFO mat LABELS "host;extract" MATCH "values refreshed in place" "constant coefficients. rank 0"
  "variable coefficients. rank 0" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
  COMMAND ${V} ${VOK} ${CONST} -then_perturb_row 60 -dim 2 -n 15 -pc_hjacobi_tile 6 -pc_hjacobi_overlap 2 -steps 1 -pc_view)
# star values first, then box values in the same (box DMDA) pattern: they do not fit the star stencil, PCSetUp re-extracts
hj_expect_test(NAME val_star_then_box INFO mat LABELS "host;extract" MATCH "do not fit" "box stencil" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
  COMMAND ${V} ${VOK} -first_star -kind box -dim 2 -n 13 ${T5O2K2} -steps 1 -pc_view)
hj_expect_test(NAME val_np2_star_then_box NP 2 INFO mat LABELS "host;extract;mpi" MATCH "do not fit" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
  COMMAND ${V} ${VOK} -first_star -kind box -dim 3 -n 8 ${T4O2K2} -steps 1)
# new values give one row nonzero box couplings among star values (the other rows keep them as stored zeros): the row,
# interior and not the first, takes the fast path of the recorded row pattern, which must see the coupling and re-extract
hj_expect_test(NAME val_corner_row INFO mat LABELS "host;extract" MATCH "do not fit" "box stencil" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
  COMMAND ${V} ${VOK} -kind star -da_stencil box -then_corner_row 84 -dim 2 -n 13 ${T5O2K2} -steps 1 -pc_view)
hj_expect_test(NAME val_corner_row_dof2_3d INFO mat LABELS "host;extract;dof" MATCH "do not fit" "box stencil" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
  COMMAND ${V} ${VOK} -kind star -da_stencil box -then_corner_row 364 -dof 2 -dim 3 -n 9 ${T4O2K2} -steps 1 -pc_view)
if(HJACOBI_WITH_CUDA) # the host refresh under the CUDA backend (host extraction forced): the device copy must be dropped and uploaded with the new values
  # test_values on the CUDA backend with host extraction, omega fixed, the extraction's PetscInfo on stdout
  set(VCU ${V} ${CUB} -pc_hjacobi_extract host -pc_hjacobi_omega 0.9 -info :mat)
  hj_expect_test(NAME cuda_val_2d_constant_then_variable LABELS "cuda;extract" MATCH "values refreshed in place" "constant coefficients. rank 0"
    "variable coefficients. rank 0" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
    COMMAND ${VCU} ${CONST} -then_perturb_row 300 -dim 2 -n 41 -pc_hjacobi_tile 16 -pc_hjacobi_overlap 2 -steps 1 -pc_view)
  hj_expect_test(NAME cuda_val_np2_3d_box_periodic NP 2 LABELS "cuda;extract;mpi" MATCH "values refreshed in place" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
    COMMAND ${VCU} -dim 3 -kind box -periodic -n 17 ${T8O2K2})
  hj_expect_test(NAME cuda_val_dof3_2d LABELS "cuda;extract;dof" MATCH "values refreshed in place" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
    COMMAND ${VCU} -dof 3 -dim 2 -n 33 ${T8O2K2})
  hj_expect_test(NAME cuda_val_star_then_box LABELS "cuda;extract" MATCH "do not fit" "hjtest [0-9]+ checks, 0 failed" NOMATCH ${VNO}
    COMMAND ${VCU} -first_star -kind box -dim 2 -n 37 -pc_hjacobi_tile 16 -pc_hjacobi_overlap 2 -steps 1)
endif()
