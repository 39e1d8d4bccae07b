# test_change: operators and parameters that change between setups (new sizes, kinds, values; k, omega and the CUDA
# kernel options after setup), each against the reference; a MATSHELL Pmat on a PC that has the DMDA is an error naming
# the problem. Included from test/CMakeLists.txt.
# On the GPU (cuda_rob_change_*): the CUDA plan made again after each change (k 3 -> 1 -> 2, omega, shared + tile kernel
# at k = 1).
hj_case(rob_change_2d     1 robustness test_change -dim 2 -n 13 -kind box -da_stencil star -prealloc_only ON host cuda)
hj_case(rob_change_3d_np2 2 "robustness;mpi" test_change -dim 3 -n 9 -n2 11 ON host cuda GPU -dim 2 -n 29 -n2 33)
hj_case(rob_change_dof2_3d 1 "robustness;dof" test_change -dof 2 -dim 3 -n 9 -n2 11 ON host cuda)
hj_test(rob_change_1d_periodic 1 robustness test_change -dim 1 -n 301 -periodic -n2 290) # > the default tile 256: the periodic seam of doc/algorithm.md
# MATSHELL Pmat on a PC that has the DMDA: must be an error naming the problem (0.1.0: a crash in MatGetRow)
hj_test(rob_err_shell_pmat_dm 1 "robustness;errors" test_change -dim 2 -n 9 -shell_pmat_dm)
