# test_refine: the accuracy of a Richardson solve. It solves a shifted random graph Laplacian whose solution is >= 1e4
# times its right-hand side from the solution's large part, until the TRUE relative residual is below 1e-9, and checks
# that the same iterations with x rounded to float every cycle (what the single inner precision did before its
# correction form) stall above 1e-7: the test can fail. Host: native sub-iterations (the test itself, 1/2/4 ranks).
# Included from test/CMakeLists.txt.
set(RFN test_refine -pc_hjacobi_omega 0.8)
hj_case(refine_2d 1 host ${RFN} -dim 2 -n 64 ${T16O4K8} ON host cuda)
hj_test(refine_np2_3d_box_dof2 2 "mpi;dof" ${RFN} -dim 3 -kind box -n 13 -dof 2 -pc_hjacobi_tile 6 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 4)
hj_test(refine_np4_2d 4 mpi ${RFN} -dim 2 -n 48 ${P2x2} ${T16O4K8})
# Every tile kernel with single inner precision in correction form, on the GPU only (ctest -L cuda -R cuda_refine_).
set(RFS -pc_hjacobi_inner_precision single)
hj_case(refine_single_2d_shared 1 cuda ${RFN} ${RFS} -pc_hjacobi_cuda_kernel shared -dim 2 -n 64 ${T16O4K8} ON cuda)
hj_case(refine_single_2d_registers 1 cuda ${RFN} ${RFS} -pc_hjacobi_cuda_kernel registers -dim 2 -n 64 ${T16O4K8} ON cuda)
hj_case(refine_single_2d_registers_constant 1 cuda ${RFN} ${RFS} -pc_hjacobi_cuda_kernel registers -constant -periodic -dim 2 -n 64 ${T16O4K8} ON cuda)
hj_case(refine_single_2d_r8_partial 1 cuda ${RFN} ${RFS} -pc_hjacobi_cuda_kernel registers -pc_hjacobi_cuda_strip 8 -dim 2 -da_grid_x 61 -da_grid_y 59
    -pc_hjacobi_tile 16,13 -pc_hjacobi_overlap 4,2 -pc_hjacobi_subiterations 6 ON cuda)
hj_case(refine_single_rows 1 cuda ${RFN} ${RFS} -zero_y -shift 2e-4 -min_ratio 4e3 -dim 2 -da_grid_x 37 -da_grid_y 23 ${T16O4K8} ON cuda)
hj_case(refine_single_1d 1 cuda ${RFN} ${RFS} -dim 1 -n 101 -pc_hjacobi_tile 32 -pc_hjacobi_overlap 8 -pc_hjacobi_subiterations 16 ON cuda)
hj_case(refine_single_3d_box_uncached 1 cuda ${RFN} ${RFS} -dim 3 -kind box -n 20 -pc_hjacobi_tile 16,16,8 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 4 ON cuda)
hj_case(refine_single_3d_constant 1 cuda ${RFN} ${RFS} -constant -periodic -dim 3 -n 19 ${T8O2K4} ON cuda)
hj_case(refine_single_dof3_2d 1 "cuda;dof" ${RFN} ${RFS} -dof 3 -dim 2 -n 41 -pc_hjacobi_tile 12 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 6 ON cuda)
hj_case(refine_single_dof2_np2_3d_box 2 "cuda;dof;mpi" ${RFN} ${RFS} -dof 2 -dim 3 -kind box -n 13 -pc_hjacobi_tile 6 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 4 ON cuda)
