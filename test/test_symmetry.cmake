# test_symmetry: with overlap 0 and a symmetric A, M is symmetric and CG converges; the converse needs k > o/2 + 1:
# from x = 0 the halo is zero, and with k <= o/2 + 1 one cycle equals k global sweeps on the owned points, which is
# symmetric. Included from test/CMakeLists.txt.

# ------------------------------------------------------------------------------------------------------------
# Constant weights
hj_test(sym_2d_star        1 symmetry ${S} -dim 2 -da_grid_x 31 -da_grid_y 23 -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 8 -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 3 -pc_hjacobi_omega 0.8)
hj_test(sym_3d_box_c3 1 symmetry ${S} -dim 3 -kind box -n 11 -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 4,5,3 -pc_hjacobi_overlap 0
  -pc_hjacobi_subiterations 2 -pc_hjacobi_cycles 3 -pc_hjacobi_omega 0.7)
hj_test(sym_np2_2d_box     2 "symmetry;mpi" ${S} -dim 2 -kind box -da_stencil star -n 27 -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 6 -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 2)
hj_test(sym_np4_3d         4 "symmetry;mpi" ${S} -dim 3 -n 13 -ksp_type cg -pc_type hjacobi ${T4O0K4} -pc_hjacobi_omega 0.6)
hj_test(sym_overlap_nonsym 1 symmetry ${S} -dim 2 -n 21 -expect_nonsymmetric ${T8O2K3})

# ------------------------------------------------------------------------------------------------------------
# Per-sweep weights: overlap 0 and CG (hi bounds the spectrum: positive definite), the default (auto) included
hj_test(sym_wts_cheb_2d_k5 1 "symmetry;weights" ${S} -dim 2 -da_grid_x 31 -da_grid_y 23 -ksp_type cg -pc_type hjacobi ${WC} -pc_hjacobi_tile 8
  -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 5)
hj_test(sym_wts_chsq_3d_box_k8 1 "symmetry;weights" ${S} -dim 3 -kind box -n 11 -ksp_type cg -pc_type hjacobi ${WS} -pc_hjacobi_tile 4,5,3
  -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 8 -pc_hjacobi_cycles 2)
hj_test(sym_wts_auto_2d_k4 1 "symmetry;weights" ${S} -dim 2 -da_grid_x 29 -da_grid_y 21 -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 7
  -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 4)
hj_test(sym_np2_wts_chsq_2d_box_k5 2 "symmetry;mpi;weights" ${S} -dim 2 -kind box -da_stencil star -n 27 -ksp_type cg -pc_type hjacobi ${WS}
  -pc_hjacobi_tile 6 -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 5)
hj_test(sym_np4_wts_cheb_3d_k8 4 "symmetry;mpi;weights" ${S} -dim 3 -n 13 -ksp_type cg -pc_type hjacobi ${WC} -pc_hjacobi_tile 4
  -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 8)
hj_test(sym_wts_cheb_overlap_nonsym 1 "symmetry;weights" ${S} -dim 2 -n 21 -expect_nonsymmetric ${WC} ${T8O2K3})

# ------------------------------------------------------------------------------------------------------------
# On the GPU: the shared and register-strip kernels
if(HJACOBI_WITH_CUDA)
  hj_case(sym_np2_3d 2 "cuda;symmetry;mpi" ${S} -dim 3 -kind box -n 21 -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 8 -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 2 ON cuda)
  hj_case(reg_sym_np2_2d 2 "cuda;symmetry;mpi" ${S} ${REG} -dim 2 -da_grid_x 43 -da_grid_y 37 -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 16,10
    -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 3 -pc_hjacobi_omega 0.8
    ON cuda)
endif()
