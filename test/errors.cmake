# Bad inputs: nonzero exit and the library's message (hj_expect_test ERROR). PETSc's error report repeats the command
# line (the options table, "Option left", the traceback's function names), so each MATCH holds words that only the
# message has (tools/mutate-check.sh removes each check in turn and shows its test then fails). Included from
# test/CMakeLists.txt, after tutorials.cmake (the sub-PC cases run ksp ex45).

# ------------------------------------------------------------------------------------------------------------
# Grid, operator and options
hj_expect_test(NAME err_no_dm          ERROR LABELS errors MATCH "neither the PC nor its Pmat has a DM" COMMAND ${RX} -dm_kind none)
hj_expect_test(NAME err_not_dmda       ERROR LABELS errors MATCH "needs a DMDA, but the PC's DM is of type shell" COMMAND ${RX} -dm_kind shell)
hj_expect_test(NAME err_wide_entries   ERROR LABELS errors MATCH "nonzero entry outside the 3\\^dim box \\(row of grid point \\(1,1,0\\), offset \\(2,0,0\\)\\)" COMMAND ${RX} -wide)
hj_expect_test(NAME err_zero_diag      ERROR LABELS errors MATCH "zero \\(or missing\\) diagonal entry \\(grid point \\(6,2,0\\)\\)" COMMAND ${RX} -zero_diag_row 40)
hj_expect_test(NAME err_missing_diag   ERROR LABELS errors MATCH "zero \\(or missing\\) diagonal entry \\(grid point \\(6,2,0\\)\\)" COMMAND ${RX} -prealloc_only -missing_diag_row 40)
hj_expect_test(NAME err_np2_zero_diag ERROR NP 2 LABELS "errors;mpi" MATCH "zero \\(or missing\\) diagonal entry (\\(grid point \\(8,8,0\\)\\)|on another rank)"
  COMMAND ${RX} -dim 2 -n 9 -zero_diag_row 80)
hj_expect_test(NAME err_dof9           ERROR LABELS errors MATCH "1 <= dof <= 8 fields per point .point-block hierarchical Jacobi.. this DMDA has dof = 9" COMMAND ${RX} -dof 9)
hj_expect_test(NAME err_dof2_singular_block ERROR LABELS "errors;dof" MATCH "singular diagonal block \\(grid point \\(0,0,0\\)\\)" COMMAND ${RX} -dof 2 -zero_diag_row 0)
set(OVEVEN "overlap must be even and >= 0 .each tile keeps half of a shared strip.. got")
hj_expect_test(NAME err_overlap_odd    ERROR LABELS errors MATCH "${OVEVEN} 3 in direction 0" COMMAND ${RX} -pc_hjacobi_tile 8 -pc_hjacobi_overlap 3)
hj_expect_test(NAME err_overlap_odd_y  ERROR LABELS errors MATCH "${OVEVEN} 1 in direction 1" COMMAND ${RX} -pc_hjacobi_tile 8 -pc_hjacobi_overlap 2,1)
hj_expect_test(NAME err_overlap_negative ERROR LABELS errors MATCH "${OVEVEN} -2 in direction 0" COMMAND ${RX} -pc_hjacobi_tile 8 -pc_hjacobi_overlap -2)
hj_expect_test(NAME err_overlap_ge_tile ERROR LABELS errors MATCH "overlap 4 must be smaller than the tile 4 in direction 0" COMMAND ${RX} -pc_hjacobi_tile 4 -pc_hjacobi_overlap 4)
hj_expect_test(NAME err_overlap_ge_tile_y ERROR LABELS errors MATCH "overlap 4 must be smaller than the tile 4 in direction 1" COMMAND ${RX} -pc_hjacobi_tile 8,4 -pc_hjacobi_overlap 2,4)
hj_expect_test(NAME err_tile0          ERROR LABELS errors MATCH "tile size must be >= 1 in every direction. got 0 in direction 0" COMMAND ${RX} -pc_hjacobi_tile 0 -pc_hjacobi_overlap 0)
hj_expect_test(NAME err_subiterations0 ERROR LABELS errors MATCH "subiterations must be >= 1. got 0" COMMAND ${RX} -pc_hjacobi_subiterations 0)
hj_expect_test(NAME err_cycles0        ERROR LABELS errors MATCH "cycles must be >= 1. got 0" COMMAND ${RX} -pc_hjacobi_cycles 0)
# omega: a number in (0, 2) or auto; -1 and -2 (PETSC_DECIDE, PETSC_DEFAULT in the C API) are not auto
foreach(t "0;0" "2;2" "_minus1;-1" "_minus2;-2" "_nan;nan")
  list(POP_FRONT t name w)
  hj_expect_test(NAME err_omega${name} ERROR LABELS errors MATCH "pc_hjacobi_omega ${w}: give a damping 0 < omega < 2, or auto" COMMAND ${RX} -pc_hjacobi_omega ${w})
endforeach()
hj_expect_test(NAME err_backend_foo    ERROR LABELS errors MATCH "Unknown option .?foo.? for -pc_hjacobi_backend" COMMAND ${RX} -pc_hjacobi_backend foo)
# Debian's PETSc has no CUDA; with a CUDA PETSc the vectors here are host vectors: an error either way
hj_expect_test(NAME err_backend_cuda ERROR LABELS errors
  MATCH "-pc_hjacobi_backend cuda(: this build has no CUDA| needs CUDA vectors, but the Pmat's vectors are of type)"
  COMMAND ${RX} -pc_hjacobi_backend cuda)

# ------------------------------------------------------------------------------------------------------------
# Extraction on the device: no device extraction without the CUDA backend; the device path's errors read as the
# host's (grid point named)
hj_expect_test(NAME err_extract_device_host ERROR LABELS errors MATCH "extract device needs the CUDA backend and an aijcusparse Pmat" COMMAND ${RX} -pc_hjacobi_extract device)
if(HJACOBI_WITH_CUDA)
  set(RXD $<TARGET_FILE:test_reference> ${CUB} -pc_hjacobi_extract device)
  hj_expect_test(NAME cuda_err_dev_wide ERROR LABELS "cuda;errors" MATCH "nonzero entry outside the 3\\^dim box \\(row of grid point \\(1,1,0\\), offset \\(2,0,0\\)\\)" COMMAND ${RXD} -wide)
  hj_expect_test(NAME cuda_err_dev_zero_diag ERROR LABELS "cuda;errors" MATCH "zero \\(or missing\\) diagonal entry \\(grid point \\(6,2,0\\)\\)" COMMAND ${RXD} -zero_diag_row 40)
  hj_expect_test(NAME cuda_err_dev_missing_diag ERROR LABELS "cuda;errors" MATCH "zero \\(or missing\\) diagonal entry \\(grid point \\(6,2,0\\)\\)" COMMAND ${RXD} -prealloc_only -missing_diag_row 40)
  hj_expect_test(NAME cuda_err_dev_np2_zero_diag ERROR NP 2 LABELS "cuda;errors;mpi" MATCH "diagonal entry (\\(grid point \\(8,8,0\\)\\)|on another rank)" COMMAND ${RXD} -dim 2 -n 9 -zero_diag_row 80)
  # a device allocation failing on one rank stops every rank (no hang in the extraction's reductions): the test hook
  # -pc_hjacobi_debug_fail_alloc 1 fails rank 1's planes; rank 0, which allocated, prints rank 1's reason
  hj_expect_test(NAME cuda_err_extract_alloc_np2 ERROR NP 2 LABELS "cuda;errors;mpi" MATCH "device extraction could not allocate the coefficient planes"
    "-pc_hjacobi_extract host" "on rank 1; 1 of 2 ranks failed"
    COMMAND ${RXD} -dim 2 -n 17 -pc_hjacobi_debug_fail_alloc 1)
  set_tests_properties(cuda_err_extract_alloc_np2 PROPERTIES TIMEOUT 60)
  hj_expect_test(NAME cuda_err_dev_singular_block ERROR LABELS "cuda;errors;dof" MATCH "singular diagonal block \\(grid point \\(0,0,0\\)\\)" COMMAND ${RXD} -dof 2 -zero_diag_row 0)
  hj_expect_test(NAME cuda_err_dev_not_cusparse ERROR LABELS "cuda;errors" MATCH "backend cuda needs CUDA vectors[^.]*aijcusparse"
    COMMAND $<TARGET_FILE:test_reference> -dm_vec_type cuda -dm_mat_type aij -pc_hjacobi_backend cuda -pc_hjacobi_extract device -use_gpu_aware_mpi 0)
endif()

# ------------------------------------------------------------------------------------------------------------
# Sweep weights: the Chebyshev interval (more in weights.cmake) and the weight type
hj_expect_test(NAME err_wts_interval_reversed ERROR LABELS "errors;weights" MATCH "Chebyshev interval \\[2\\.?, 1\\.?\\]: needs 0 < lo < hi"
  COMMAND ${RX} ${WC} -pc_hjacobi_chebyshev_interval 2,1)
hj_expect_test(NAME err_wts_interval_one ERROR LABELS "errors;weights" MATCH "chebyshev_interval needs two numbers lo,hi .0 for one chosen at setup.; got 1"
  COMMAND ${RX} ${WC} -pc_hjacobi_chebyshev_interval 1)
hj_expect_test(NAME err_wts_interval_three ERROR LABELS "errors;weights" MATCH "chebyshev_interval needs two numbers lo,hi .0 for one chosen at setup.; got 3"
  COMMAND ${RX} ${WC} -pc_hjacobi_chebyshev_interval 0.1,2,3)
hj_expect_test(NAME err_wts_interval_none ERROR LABELS "errors;weights" MATCH "chebyshev_interval needs two numbers lo,hi .0 for one chosen at setup.; got 0"
  COMMAND ${RX} ${WC} -pc_hjacobi_chebyshev_interval)
# nodes that round to one value (an interval narrower than 1e-8 hi): refused (they once read before the node array)
hj_expect_test(NAME err_wts_interval_narrow ERROR LABELS "errors;weights" MATCH "needs 0 < lo < hi .hi - lo > 1e-08 hi."
  COMMAND ${RX} ${WC} -pc_hjacobi_chebyshev_interval 1,1.0000000000000004)
hj_expect_test(NAME err_wts_unknown ERROR LABELS "errors;weights" MATCH "Unknown option .?foo.? for -pc_hjacobi_weights"
  COMMAND ${RX} -pc_hjacobi_weights foo)

# ------------------------------------------------------------------------------------------------------------
# Complex scalars: no fp32 correction form (add_test itself: hj_expect_test skips single there)
if(HJACOBI_PETSC_USE_COMPLEX) # complex scalars: no fp32 correction form (add_test itself: hj_expect_test skips single there)
  add_test(NAME err_complex_single COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/expect.sh --error -e "inner_precision single is not available with complex scalars"
    -- ${HJACOBI_MPIEXEC} -n 1 $<TARGET_FILE:test_reference> -pc_hjacobi_inner_precision single)
  set_tests_properties(err_complex_single PROPERTIES LABELS "errors;complex" ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endif()

# ------------------------------------------------------------------------------------------------------------
# The CUDA backend's options and tiles: the developer options are read (and checked) by PCSetFromOptions whatever
# the vectors (kernels removed since are unknown values, strips of 16 points out of range); a per-rank configuration
# error stops every rank: the tile 64 x 65 holds 4160 points on rank 0 (65 rows) but 4096, the shared kernel's
# limit, on rank 1 (64 rows), and both ranks must stop in PCSetUp with rank 0's reason; the register-strip kernel
# outside the 2D star, dof > 1 or its limits; a bad thread count; the CUDA backend on vectors bound to the CPU; a
# tile too long in z (4800 points), and one whose buffers exceed the shared memory (dof 8): every rank stops in
# PCSetUp with what fits, the last direction shortened and a cube
if(HJACOBI_WITH_CUDA)
  hj_expect_test(NAME err_cuda_kernel_march ERROR LABELS errors MATCH "Unknown[^.]*march" COMMAND ${RX} -pc_hjacobi_cuda_kernel march)
  hj_expect_test(NAME err_cuda_kernel_pipelined ERROR LABELS errors MATCH "Unknown[^.]*pipelined" COMMAND ${RX} -pc_hjacobi_cuda_kernel pipelined)
  hj_expect_test(NAME err_cuda_strip16 ERROR LABELS errors MATCH "pc_hjacobi_cuda_strip 16: the register-strip kernel takes strips of 4 or 8 points" COMMAND ${RX} -pc_hjacobi_cuda_strip 16)
  hj_expect_test(NAME cuda_err_tile_one_rank_np2 NP 2 ERROR LABELS "cuda;errors;mpi" MATCH "at most 4096" "on rank 0; 1 of 2 ranks failed"
    COMMAND $<TARGET_FILE:test_reference> ${CUB} -pc_hjacobi_cuda_kernel shared -dim 2 -da_grid_x 64 -da_grid_y 129 -da_processors_x 1 -da_processors_y 2
    -pc_hjacobi_tile 64,65 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_dof_err_registers ERROR LABELS "cuda;errors;dof" MATCH "registers handles dof = 1 only. this DMDA has dof = 2"
    COMMAND $<TARGET_FILE:test_reference> ${CUB} -pc_hjacobi_cuda_kernel registers -dof 2 -dim 2 -n 17 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_reg_err_3d_box ERROR LABELS "cuda;errors" MATCH "registers[^.]*2D star" COMMAND ${RT} ${CUB} ${REG} -dim 3 -kind box -n 9 -pc_hjacobi_tile 4 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_reg_err_box ERROR LABELS "cuda;errors" MATCH "registers[^.]*2D star" COMMAND ${RT} ${CUB} ${REG} -dim 2 -kind box -n 17 -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_reg_err_1d ERROR LABELS "cuda;errors" MATCH "registers[^.]*2D star" COMMAND ${RT} ${CUB} ${REG} -dim 1 -n 90 -pc_hjacobi_tile 16 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_threads_err_value ERROR LABELS "cuda;threads;errors" MATCH "pc_hjacobi_cuda_threads 100: give a multiple of 32"
    COMMAND ${RT} ${CUB} -pc_hjacobi_cuda_threads 100 -dim 2 -n 17)
  hj_expect_test(NAME cuda_reg_err_3d_star ERROR LABELS "cuda;errors" MATCH "registers[^.]*2D star[^;]*; this operator is a 3D star"
    COMMAND ${RT} ${CUB} ${REG} -dim 3 -n 17 -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_reg_err_threads ERROR LABELS "cuda;errors" MATCH "registers: tile 128x64 needs 1024 threads"
    COMMAND ${RT} ${CUB} ${REG} -dim 2 -n 129 -pc_hjacobi_tile 128,64 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_reg_err_strip ERROR LABELS "cuda;errors" MATCH "pc_hjacobi_cuda_strip 6: the register-strip kernel takes strips of 4 or 8 points"
    COMMAND ${RT} ${CUB} ${REG} -pc_hjacobi_cuda_strip 6 -dim 2 -n 17 -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_fallback_bound_vecs_backend_cuda ERROR LABELS "cuda;errors" MATCH "backend cuda needs CUDA vectors .-dm_vec_type cuda or -vec_type cuda.; got vector type"
    COMMAND $<TARGET_FILE:test_reference> ${CUB} -bind_vecs_cpu -dim 2 -n 33)
  hj_expect_test(NAME cuda_err_tile_fit_points ERROR LABELS "cuda;errors"
    MATCH "-pc_hjacobi_tile 12,10,40 does not fit the CUDA tile kernels: its working region of 12x10x40 points has 4800; the shared kernel holds at most 4096"
    "largest tile that fits is 12,10,34 .the longest in z for 12 x 10 in x and y., or 16,16,16: use -pc_hjacobi_tile 12,10,34 .or 16,16,16."
    COMMAND $<TARGET_FILE:test_reference> ${CUB} -pc_hjacobi_cuda_kernel shared -dim 3 -da_grid_x 29 -da_grid_y 19 -da_grid_z 41 -pc_hjacobi_tile 12,10,40 -pc_hjacobi_subiterations 4)
  # the same tile on auto: a 3D star tile the shared kernel cannot hold runs on the column kernel (its planes read)
  hj_expect_test(NAME cuda_tile_long_z_columns LABELS "cuda;columns" MATCH "tile kernel .columns, -pc_hjacobi_cuda_kernel auto., 12 tiles of at most 12x10x40"
    COMMAND $<TARGET_FILE:test_reference> ${CUB} -dim 3 -da_grid_x 29 -da_grid_y 19 -da_grid_z 41 -pc_hjacobi_tile 12,10,40 -pc_hjacobi_subiterations 4 -pc_view)
  # the column kernel's limits: a box stencil, fp32 sub-iterations, k above 8, 32 x 32 columns (34 x 34 threads with the ring)
  hj_expect_test(NAME cuda_columns_err_box ERROR LABELS "cuda;errors;columns" MATCH "columns handles 3D star .7-point. stencils of one field per point; this operator is a 3D box stencil"
    COMMAND ${RT} ${CUB} -pc_hjacobi_cuda_kernel columns -dim 3 -kind box -n 17 -pc_hjacobi_subiterations 2)
  hj_expect_test(NAME cuda_columns_err_single ERROR LABELS "cuda;errors;columns" MATCH "columns runs its sub-iterations in PetscScalar"
    COMMAND ${RT} ${CUB} -pc_hjacobi_cuda_kernel columns -dim 3 -n 17 -pc_hjacobi_subiterations 2 -pc_hjacobi_inner_precision single)
  hj_expect_test(NAME cuda_columns_err_k ERROR LABELS "cuda;errors;columns" MATCH "columns handles k <= 8 sub-iterations; k = 9"
    COMMAND ${RT} ${CUB} -pc_hjacobi_cuda_kernel columns -dim 3 -n 17 -pc_hjacobi_subiterations 9)
  hj_expect_test(NAME cuda_columns_err_threads ERROR LABELS "cuda;errors;columns" MATCH "columns: tile 32x32 in x-y needs 1184 threads"
    COMMAND ${RT} ${CUB} -pc_hjacobi_cuda_kernel columns -dim 3 -n 33 -pc_hjacobi_tile 32,32,8 -pc_hjacobi_subiterations 2)
  # complex scalars: 16-byte values, and no tile 16 x 16 in x and y fits at all (only the cubic suggestion)
  set(_hj_fit_smem "largest tile that fits is 16,16,[0-9]+ .the longest in z for 16 x 16 in x and y., or [0-9]+,[0-9]+,[0-9]+: use -pc_hjacobi_tile 16,16,[0-9]+ .or [0-9,]+.$")
  if(HJACOBI_PETSC_USE_COMPLEX)
    set(_hj_fit_smem "largest tile that fits is 7,7,7: use -pc_hjacobi_tile 7,7,7$")
  endif()
  hj_expect_test(NAME cuda_err_tile_fit_smem ERROR LABELS "cuda;errors;dof"
    MATCH "-pc_hjacobi_tile 16,16,16 does not fit the CUDA tile kernels: its working region of 16x16x16 points needs (746496|1492992) bytes of shared memory per block"
    "${_hj_fit_smem}"
    COMMAND $<TARGET_FILE:test_reference> ${CUB} -dof 8 -dim 3 -n 17 -pc_hjacobi_tile 16 -pc_hjacobi_subiterations 2)
endif()

# ------------------------------------------------------------------------------------------------------------
# hjacobi as a sub-preconditioner: contexts without a grid are refused with the list of those that work
if(TARGET tutorial_ex45)
  set(E $<TARGET_FILE:tutorial_ex45>)
  set(G -da_grid_x 9 -da_grid_y 8 -da_grid_z 7 -ksp_converged_reason)
  hj_expect_test(NAME err_sub_bjacobi_np2 NP 2 ERROR LABELS "errors;mpi" MATCH "bjacobi on more than one rank" "-pc_asm_dm_subdomains -sub_pc_type hjacobi"
    COMMAND ${E} ${DLL} ${G} -pc_type bjacobi -sub_pc_type hjacobi)
  hj_expect_test(NAME err_sub_asm_no_dm_np2 NP 2 ERROR LABELS "errors;mpi" MATCH "neither the PC nor its Pmat has a DM" COMMAND ${E} ${DLL} ${G} -pc_type asm -sub_pc_type hjacobi)
  hj_expect_test(NAME err_sub_asm_overlap0_np2 NP 2 ERROR LABELS "errors;mpi" MATCH "pc_asm_overlap or -pc_asm_blocks, which turn it off"
    COMMAND ${E} ${DLL} ${G} -pc_type asm -pc_asm_dm_subdomains -pc_asm_overlap 0 -sub_pc_type hjacobi)
  hj_expect_test(NAME err_sub_gamg LABELS errors ERROR MATCH "redundant, gamg levels, fieldsplit by index sets" COMMAND ${E} ${DLL} ${G} -pc_type gamg -mg_levels_pc_type hjacobi)
  hj_expect_test(NAME err_sub_redundant_np2 NP 2 ERROR LABELS "errors;mpi" MATCH "which turn it off., redundant, gamg levels" "hjacobi works directly"
    COMMAND ${E} ${DLL} ${G} -pc_type redundant -redundant_pc_type hjacobi)
  hj_expect_test(NAME err_sub_asm_da_overlap_np2 NP 2 ERROR LABELS "errors;mpi" MATCH "needs DMDA subdomains without overlap" ". use -da_overlap 0"
    COMMAND ${E} ${DLL} ${G} -pc_type asm -pc_asm_dm_subdomains -da_overlap 1 -sub_pc_type hjacobi)
endif()
