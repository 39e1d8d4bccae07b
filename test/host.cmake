# The host cycle's fast paths (src/host/cycle.cxx), each against the literal reference of test_reference on
# operators that take it (labels host, hostcycle; included from test/CMakeLists.txt, which defines hj_case, hj_test,
# hj_expect_test and R). Each path has a test that fails without it (tools/mutate-check.sh host_*):
#  - constant rows inside the 2-point boundary shell (-constant with Dirichlet faces: the faces' rows differ), the
#    points beyond the box's x ends from their own rows (xrows), rows of the y/z shell from the planes; tiles that
#    straddle the box, overlap, odd sizes, ranks whose box touches no face or one face along x;
#  - the whole stencil constant (no Dirichlet faces) and one row perturbed inside the box (no constant rows);
#  - rows whose length leaves a vector remainder (odd extents), tiles clipped at the box end, one-point tiles;
#  - the first cycle from a zero guess (PCApply) and from x (PCApplyRichardson), k = 1 (x read and written directly),
#    the transposed correction (zero start, b zero off T), dof > 1 (block rows).
set(SHELL -constant -dirichlet_fraction 0)
foreach(c
    "shell_1d;1;-dim;1;-n;41;-pc_hjacobi_tile;9;-pc_hjacobi_overlap;2;-pc_hjacobi_subiterations;3"
    "shell_2d;1;-dim;2;-da_grid_x;23;-da_grid_y;17;-pc_hjacobi_tile;7,5;-pc_hjacobi_overlap;2,0;-pc_hjacobi_subiterations;4"
    "shell_2d_box;1;-dim;2;-kind;box;-da_grid_x;19;-da_grid_y;21;-pc_hjacobi_tile;19,4;-pc_hjacobi_subiterations;3"
    "shell_3d;1;-dim;3;-da_grid_x;19;-da_grid_y;13;-da_grid_z;11;-pc_hjacobi_tile;7,5,4;-pc_hjacobi_overlap;2,2,0;-pc_hjacobi_subiterations;3"
    "shell_3d_box;1;-dim;3;-kind;box;-n;13;-pc_hjacobi_tile;13,4,3;-pc_hjacobi_subiterations;2;-pc_hjacobi_cycles;2"
    "shell_3d_k1;1;-dim;3;-n;11;-pc_hjacobi_tile;5;-pc_hjacobi_subiterations;1;-pc_hjacobi_omega;0.8"
    "shell_2d_np2;2;-dim;2;-da_grid_x;31;-da_grid_y;15;-da_processors_x;2;-da_processors_y;1;-pc_hjacobi_tile;6,4;-pc_hjacobi_subiterations;3"
    "shell_3d_np4;4;-dim;3;-da_grid_x;21;-da_grid_y;17;-da_grid_z;9;-da_processors_x;4;-da_processors_y;1;-da_processors_z;1;-pc_hjacobi_tile;5,6,4;-pc_hjacobi_overlap;0,2,0;-pc_hjacobi_subiterations;3"
    "shell_3d_np4_yz;4;-dim;3;-n;15;-da_processors_x;1;-da_processors_y;2;-da_processors_z;2;-pc_hjacobi_tile;15,4,5;-pc_hjacobi_subiterations;2")
  list(POP_FRONT c name np)
  hj_test(host_${name} ${np} "host;hostcycle" ${R} ${SHELL} ${c})
endforeach()
# which rows the cycle takes in compact form, said by -pc_view
# (the thinnest shell that works: 1 when only the faces' rows differ, 2 when their neighbours drop the couplings to them)
hj_expect_test(NAME host_shell_view LABELS "host;hostcycle" MATCH "one row inside the 1-point boundary shell" "hjtest PASS all"
  COMMAND $<TARGET_FILE:test_reference> ${SHELL} -dim 3 -n 11 -pc_hjacobi_tile 5 -pc_view)
hj_expect_test(NAME host_shell2_view LABELS "host;hostcycle" MATCH "one row inside the 2-point boundary shell" "hjtest PASS all"
  COMMAND $<TARGET_FILE:test_reference> ${SHELL} -symmetric -dim 3 -n 11 -pc_hjacobi_tile 5 -pc_view)
foreach(c
    "shell2_2d;1;-dim;2;-da_grid_x;23;-da_grid_y;17;-pc_hjacobi_tile;7,5;-pc_hjacobi_overlap;2,0;-pc_hjacobi_subiterations;4"
    "shell2_3d_np2;2;-dim;3;-da_grid_x;19;-da_grid_y;13;-da_grid_z;11;-pc_hjacobi_tile;7,5,4;-pc_hjacobi_subiterations;3")
  list(POP_FRONT c name np)
  hj_test(host_${name} ${np} "host;hostcycle" ${R} ${SHELL} -symmetric ${c})
endforeach()
hj_expect_test(NAME host_constant_view LABELS "host;hostcycle" MATCH "constant stencil: no coefficient plane read" "hjtest PASS all"
  COMMAND $<TARGET_FILE:test_reference> ${SHELL} -dirichlet_boundary 0 -dim 2 -n 17 -pc_hjacobi_tile 6 -pc_view)
hj_expect_test(NAME host_perturbed_view LABELS "host;hostcycle" MATCH "variable rows: coefficient planes read everywhere" "hjtest PASS all"
  COMMAND $<TARGET_FILE:test_reference> ${SHELL} -perturb_row 200 -dim 2 -n 21 -pc_hjacobi_tile 6 -pc_view)
# the whole stencil constant, on 1 and 2 ranks, odd extents (vector remainders), tiles clipped at the box end
hj_test(host_constant_3d 1 "host;hostcycle" ${R} ${SHELL} -dirichlet_boundary 0 -dim 3 -da_grid_x 17 -da_grid_y 9 -da_grid_z 7 -pc_hjacobi_tile 7,4,3 -pc_hjacobi_overlap 2,0,0 -pc_hjacobi_subiterations 3)
hj_test(host_constant_2d_np2 2 "host;hostcycle" ${R} ${SHELL} -dirichlet_boundary 0 -dim 2 -da_grid_x 27 -da_grid_y 11 -pc_hjacobi_tile 5 -pc_hjacobi_subiterations 4)
# long rows, one tile along x (the default host tile's shape), odd lengths
hj_test(host_rows_3d 1 "host;hostcycle" ${R} -dim 3 -da_grid_x 37 -da_grid_y 7 -da_grid_z 5 -pc_hjacobi_tile 37,3,5 -pc_hjacobi_subiterations 5 -pc_hjacobi_cycles 2)
hj_test(host_rows_2d_dof3 1 "host;hostcycle;dof" ${R} -dof 3 -dim 2 -da_grid_x 29 -da_grid_y 7 -pc_hjacobi_tile 29,3 -pc_hjacobi_overlap 0,2 -pc_hjacobi_subiterations 3)
# the spectrum estimate's products from the stencil (host backend, dof 1: "PCHJacobiStencilMult_C"): said by -info, and
# the same omega and weights as the assembled matrix gives (omega_*, wts_* tests); the rows in compact form, their ends
# and the planes all enter it (Dirichlet faces, 2 ranks)
hj_expect_test(NAME host_estimate_stencil LABELS "host;hostcycle;omega" INFO pc MATCH "A x from the extracted stencil" "hjtest PASS all"
  COMMAND $<TARGET_FILE:test_reference> ${SHELL} -dim 3 -n 13 -pc_hjacobi_tile 6)
hj_expect_test(NAME host_estimate_stencil_np2 NP 2 LABELS "host;hostcycle;omega;mpi" MATCH "omega 0.[0-9]+ .auto" "hjtest PASS all"
  COMMAND $<TARGET_FILE:test_reference> ${SHELL} -dim 2 -da_grid_x 31 -da_grid_y 17 -pc_hjacobi_tile 8 -pc_view)
