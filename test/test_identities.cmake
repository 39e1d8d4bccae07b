# test_identities: hjacobi against PETSc's KSPRICHARDSON + PCJACOBI/PCPBJACOBI where both are the same iteration
# (-mode jacobi1: k = 1; -mode cone: overlap wide enough that one cycle is k exact sweeps; -mode differs: the identity
# must be able to fail). Included from test/CMakeLists.txt.

# ------------------------------------------------------------------------------------------------------------
# Scalar operators (1, 2 and 4 ranks)
hj_test(id_jacobi1_1d      1 identity ${I} -mode jacobi1 -dim 1 -n 50 -pc_hjacobi_tile 7 -pc_hjacobi_overlap 4 -pc_hjacobi_omega 0.6 -rich_its 1,4)
hj_test(id_jacobi1_2d      1 identity ${I} -mode jacobi1 -dim 2 -n 17 -pc_hjacobi_tile 5 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 4 -pc_hjacobi_cycles 2 -pc_hjacobi_omega 0.7)
hj_case(id_jacobi1_3d_box  1 identity ${I} -mode jacobi1 -dim 3 -kind box -n 9 -pc_hjacobi_tile 4,3,5 -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_omega 1.3 -pc_hjacobi_cycles 3
  ON host cuda GPU -n 17 -pc_hjacobi_tile 8,4,6)
hj_test(id_np2_jacobi1_2d_box 2 "identity;mpi" ${I} -mode jacobi1 -dim 2 -kind box -da_stencil star -n 19 -pc_hjacobi_tile 6 -pc_hjacobi_overlap 4 -pc_hjacobi_omega 0.9)
hj_test(id_np4_jacobi1_3d  4 "identity;mpi" ${I} -mode jacobi1 -dim 3 -n 11 -pc_hjacobi_tile 8 -pc_hjacobi_overlap 2 -pc_hjacobi_omega 1.0)
hj_test(id_cone_1d         1 identity ${I} -mode cone -dim 1 -n 61 -pc_hjacobi_tile 12 -pc_hjacobi_overlap 8 -pc_hjacobi_subiterations 4 -pc_hjacobi_omega 0.8)
hj_case(id_cone_2d         1 identity ${I} -mode cone -dim 2 -n 25 -pc_hjacobi_tile 11 -pc_hjacobi_overlap 4 -pc_hjacobi_subiterations 2 -pc_hjacobi_cycles 2 -pc_hjacobi_omega 0.9
  ON host cuda GPU -n 61 -pc_hjacobi_tile 16 -pc_hjacobi_overlap 6 -pc_hjacobi_subiterations 3 GPU_DROP -pc_hjacobi_cycles)
hj_test(id_cone_3d_box     1 identity ${I} -mode cone -dim 3 -kind box -n 13 -pc_hjacobi_tile 9,10,9 -pc_hjacobi_overlap 6 -pc_hjacobi_subiterations 3 -pc_hjacobi_omega 1.1)
# the identity must be able to fail: overlap 0 with 2 sub-iterations is not 2 exact sweeps
hj_test(id_differs_2d      1 identity ${I} -mode differs -dim 2 -n 17 -pc_hjacobi_tile 6 -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 2 -tol 1e-6)

# ------------------------------------------------------------------------------------------------------------
# dof > 1 (point-block)
hj_case(dof3_id_jacobi1_2d   1 "host;dof;identity" ${I} -mode jacobi1 -dof 3 -dim 2 -n 13 -pc_hjacobi_tile 5 -pc_hjacobi_overlap 2 -pc_hjacobi_omega 0.7 -pc_hjacobi_cycles 2
  ON host cuda GPU -n 23)
hj_test(dof2_id_jacobi1_3d_box 1 "host;dof;identity" ${I} -mode jacobi1 -dof 2 -dim 3 -kind box -n 8 -pc_hjacobi_tile 4,3,5 -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_omega 1.3)
hj_test(dof4_id_np2_jacobi1_2d_periodic 2 "host;dof;identity;mpi" ${I} -mode jacobi1 -dof 4 -dim 2 -kind box -periodic -n 10 -pc_hjacobi_tile 4 -pc_hjacobi_overlap 2 -pc_hjacobi_omega 0.9)
hj_case(dof2_id_cone_2d      1 "host;dof;identity" ${I} -mode cone -dof 2 -dim 2 -n 21 -pc_hjacobi_tile 11 -pc_hjacobi_overlap 4 -pc_hjacobi_subiterations 2 -pc_hjacobi_omega 0.9
  ON host cuda GPU -n 41)
hj_test(dof2_id_differs_2d   1 "host;dof;identity" ${I} -mode differs -dof 2 -dim 2 -n 13 -pc_hjacobi_tile 5 -pc_hjacobi_overlap 0 -pc_hjacobi_subiterations 2 -tol 1e-6)

# ------------------------------------------------------------------------------------------------------------
# Per-sweep weights: k = 1 is one Jacobi sweep damped by w_1 (chebyshev: 2/(lo + hi); chebyshev_squared: 1/hi);
# o/2 >= k: one cycle is k exact Jacobi sweeps damped by w_1..w_k in the PC's order
hj_test(id_wts_jacobi1_cheb_2d 1 "identity;weights" ${I} -mode jacobi1 ${WC} -symmetric -dim 2 -n 17 -pc_hjacobi_tile 5 -pc_hjacobi_overlap 2
  -pc_hjacobi_subiterations 4 -pc_hjacobi_cycles 2)
hj_test(id_wts_jacobi1_chsq_3d_box 1 "identity;weights" ${I} -mode jacobi1 ${WS} ${WI} -dim 3 -kind box -n 9 -pc_hjacobi_tile 4,3,5
  -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_cycles 3)
hj_test(id_np2_wts_jacobi1_cheb_2d_box 2 "identity;mpi;weights" ${I} -mode jacobi1 ${WC} ${WI} -dim 2 -kind box -da_stencil star -n 19
  -pc_hjacobi_tile 6 -pc_hjacobi_overlap 4)
hj_test(id_np4_wts_jacobi1_chsq_3d 4 "identity;mpi;weights" ${I} -mode jacobi1 ${WS} -symmetric -dim 3 -n 11 -pc_hjacobi_tile 8 -pc_hjacobi_overlap 0)
hj_test(id_wts_cone_cheb_2d_k2 1 "identity;weights" ${I} -mode cone ${WC} -symmetric -dim 2 -n 25 -pc_hjacobi_tile 11 -pc_hjacobi_overlap 4
  -pc_hjacobi_subiterations 2 -pc_hjacobi_cycles 2)
hj_test(id_wts_cone_cheb_1d_k5 1 "identity;weights" ${I} -mode cone ${WC} ${WI} -dim 1 -n 61 -pc_hjacobi_tile 14 -pc_hjacobi_overlap 10
  -pc_hjacobi_subiterations 5 -rich_its 1,3)
hj_test(id_wts_cone_chsq_1d_k5 1 "identity;weights" ${I} -mode cone ${WS} ${WI} -dim 1 -n 61 -pc_hjacobi_tile 14 -pc_hjacobi_overlap 10
  -pc_hjacobi_subiterations 5 -pc_hjacobi_cycles 2)
hj_test(id_wts_cone_chsq_3d_box_k3 1 "identity;weights" ${I} -mode cone ${WS} -symmetric -dim 3 -kind box -n 13 -pc_hjacobi_tile 9,10,9
  -pc_hjacobi_overlap 6 -pc_hjacobi_subiterations 3)
hj_test(id_wts_cone_cheb_2d_k8 1 "identity;weights" ${I} -mode cone ${WC} ${WI} -dim 2 -n 37 -pc_hjacobi_tile 24 -pc_hjacobi_overlap 16
  -pc_hjacobi_subiterations 8)
hj_test(dof2_id_wts_cone_chsq_2d 1 "identity;weights;dof" ${I} -mode cone ${WS} ${WI} -dof 2 -dim 2 -n 21 -pc_hjacobi_tile 11 -pc_hjacobi_overlap 4
  -pc_hjacobi_subiterations 2)
# the identity must be able to fail with these weights too: overlap 0, k = 4
hj_test(id_wts_differs_cheb_2d 1 "identity;weights" ${I} -mode differs ${WC} ${WI} -dim 2 -n 17 -pc_hjacobi_tile 6 -pc_hjacobi_overlap 0
  -pc_hjacobi_subiterations 4 -tol 1e-6)

# ------------------------------------------------------------------------------------------------------------
# On the GPU (PCPBJACOBI, the reference, runs on a host copy of A: test_identities.c says why): k = 1 in one cycle,
# the point-block kernel, the host backend on CUDA vectors, the register-strip kernel
if(HJACOBI_WITH_CUDA)
  hj_case(dof2_id_np2_jacobi1_3d_box 2 "cuda;dof;identity;mpi" ${I} -mode jacobi1 -dof 2 -dim 3 -kind box -n 10 -pc_hjacobi_tile 4,3,5 -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_omega 1.3 ON cuda)
  hj_case(dof2_id_jacobi1_3d_box_c1 1 "cuda;dof;identity" ${I} -mode jacobi1 -dof 2 -dim 3 -kind box -n 10 -pc_hjacobi_tile 4,3,5 -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_omega 1.3 ON cuda)
  hj_case(dof2_id_np2_jacobi1_3d_box_hostbackend 2 "cuda;dof;identity;mpi" ${I} -mode jacobi1 -dof 2 -dim 3 -kind box -n 10 -pc_hjacobi_tile 4,3,5
    -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_omega 1.3
    ON cuda GPU -pc_hjacobi_backend host)
  hj_case(id_jacobi1_3d_box_c1 2 "cuda;identity;mpi" ${I} -mode jacobi1 -dim 3 -kind box -n 10 -pc_hjacobi_tile 4,3,5 -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_omega 1.3 ON cuda)
  hj_case(reg_id_cone_2d 1 "cuda;identity" ${I} ${REG} -mode cone -dim 2 -n 61 -pc_hjacobi_tile 16,14 -pc_hjacobi_overlap 6 -pc_hjacobi_subiterations 3 -pc_hjacobi_omega 0.9 ON cuda)
  hj_case(reg_id_jacobi1_tile 1 "cuda;identity" ${I} ${REG} -pc_hjacobi_cuda_tile_kernel -mode jacobi1 -dim 2 -n 37 -pc_hjacobi_tile 12,9 -pc_hjacobi_overlap 2
    -pc_hjacobi_omega 1.3 -pc_hjacobi_cycles 3
    ON cuda)
endif()
