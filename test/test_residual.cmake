# test_residual: r = b - A x from the stencil ("PCHJacobiResidual_C", the residual a multigrid level computes) equals
# MatResidual's to rounding on random b and x (also in place, x = b, after a values-only refresh), and is refused
# (done false, r untouched) before PCSetUp, after MatScale without PCSetUp, when Amat is not the Pmat and for dof > 1.
# Star and box, 1D/2D/3D, periodic, variable and constant stencils, odd sizes, 1, 2 and 4 ranks; the cuda twins run
# the CUDA backend's kernel (cuda/residual.cu). ctest -R residual. Included from test/CMakeLists.txt.
set(RS test_residual)
set(OM9 -pc_hjacobi_omega 0.9) # no spectrum estimate where it adds nothing
hj_case(residual_1d_star          1 host ${RS} -dim 1 -n 41 ON host cuda)
hj_case(residual_1d_periodic_const 1 host ${RS} ${CONST} -dim 1 -periodic -n 37 ${OM9} ON host cuda)
hj_case(residual_2d_star          1 host ${RS} -dim 2 -da_grid_x 19 -da_grid_y 14 ON host cuda)
hj_case(residual_2d_box           1 host ${RS} -dim 2 -kind box -n 15 ${OM9} ON host cuda)
hj_case(residual_2d_periodic      1 host ${RS} -dim 2 -periodic -da_grid_x 13 -da_grid_y 11 ${OM9} ON host cuda)
hj_case(residual_2d_const         1 host ${RS} ${CONST} -dim 2 -n 17 ${OM9} ON host cuda)
hj_case(residual_2d_mix           1 host ${RS} ${MIX} -dim 2 -n 19 ${OM9} ON host cuda)
hj_case(residual_3d_star          1 host ${RS} -dim 3 -da_grid_x 9 -da_grid_y 7 -da_grid_z 8 ${OM9} ON host cuda)
hj_case(residual_3d_box           1 host ${RS} -dim 3 -kind box -n 7 ON host cuda)
hj_case(residual_3d_box_periodic  1 host ${RS} -dim 3 -kind box -periodic -n 7 ${OM9} ON host cuda)
hj_case(residual_3d_box_const     1 host ${RS} ${CONST} -dim 3 -kind box -n 9 ${OM9} ON host cuda)
hj_case(residual_3d_mix           1 host ${RS} ${MIX} -dim 3 -da_grid_x 13 -da_grid_y 11 -da_grid_z 12 ON host cuda) # GPU: one row inside the shell (cint), x read in place
hj_case(residual_np2_3d_mix       2 mpi  ${RS} ${MIX} -dim 3 -n 13 ON host cuda) # GPU: cint, the padded copy and the exchange
# GPU: the 3D march (cuda/kernels/residual.cuh) over several runs and lateral tiles; a 2D grid wider than a block
hj_case(residual_3d_mix_long      1 host ${RS} ${MIX} -dim 3 -da_grid_x 35 -da_grid_y 10 -da_grid_z 37 ON host cuda)
hj_case(residual_np2_2d_long      2 mpi  ${RS} -dim 2 -da_grid_x 300 -da_grid_y 45 ${OM9} ON host cuda)
hj_case(residual_np2_3d_long      2 mpi  ${RS} ${MIX} -dim 3 -da_grid_x 20 -da_grid_y 9 -da_grid_z 70 ON host cuda) # GPU: the padded march, several runs
hj_case(residual_3d_const_long    1 host ${RS} ${CONST} -dim 3 -da_grid_x 33 -da_grid_y 9 -da_grid_z 40 ON host cuda) # GPU: a constant stencil read in place
hj_case(residual_dof2             1 "host;dof" ${RS} -dof 2 -dim 2 -n 11 ${OM9} ON host cuda)
hj_case(residual_2d_bind_cpu      1 host ${RS} -dim 2 -n 17 -bind_cpu ${OM9} ON host cuda GPU -pc_hjacobi_backend auto -expect_refused) # GPU: host vectors under the CUDA backend are left to MatResidual
hj_case(residual_np2_1d           2 mpi  ${RS} -dim 1 -n 41 ${OM9} ON host cuda)
hj_case(residual_np2_2d_box       2 mpi  ${RS} -dim 2 -kind box -n 19 ${P2x1} ${OM9} ON host cuda)
hj_case(residual_np2_3d_periodic  2 mpi  ${RS} -dim 3 -periodic -n 9 ${OM9} ON host cuda)
hj_case(residual_np2_3d_box_const 2 mpi  ${RS} ${CONST} -dim 3 -kind box -periodic -n 9 ${OM9} ON host cuda)
hj_case(residual_np2_dof2         2 "mpi;dof" ${RS} -dof 2 -dim 3 -n 7 ${OM9} ON host cuda)
hj_case(residual_np4_2d_periodic  4 mpi  ${RS} -dim 2 -periodic -n 18 ${P2x2} ${OM9} ON host cuda)
hj_case(residual_np4_2d_const     4 mpi  ${RS} ${CONST} -dim 2 -n 21 ${P2x2} ${OM9} ON host cuda)
hj_case(residual_np4_3d_box       4 mpi  ${RS} -dim 3 -kind box -n 9 ON host cuda)
hj_case(residual_np4_3d_box_periodic 4 mpi ${RS} -dim 3 -kind box -periodic -da_grid_x 11 -da_grid_y 9 -da_grid_z 10 ${OM9} ON host cuda)
