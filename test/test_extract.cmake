# test_extract: the device extraction equals the host extraction bit for bit (only with the CUDA backend). Included
# from test/CMakeLists.txt.
if(HJACOBI_WITH_CUDA)
  # device extraction = host extraction bit for bit (1D/2D/3D, star/box/box-on-star, periodic, constant, dof 1-8,
  # 1/2/4 ranks: the off-diagonal block). ctest -L cuda -R "cuda_(extract|refresh|err_dev)"
  set(EX $<TARGET_FILE:test_extract> ${CUB})
  foreach(t "1d_periodic;1;-dim;1;-n;37;-periodic"
            "2d_star;1;-dim;2;-da_grid_x;29;-da_grid_y;19;-dirichlet_fraction;0.2"
            "2d_box;1;-dim;2;-kind;box;-n;23"
            "2d_box_on_star;1;-dim;2;-kind;box;-da_stencil;star;-prealloc_only;-n;21"
            "2d_star_on_box;1;-dim;2;-kind;star;-da_stencil;box;-n;17"
            "2d_constant;1;-constant;-dirichlet_boundary;0;-dirichlet_fraction;0;-dim;2;-n;21"
            "2d_constant_dirichlet;1;-constant;-dim;2;-kind;box;-n;19"
            "2d_constant_perturbed;1;-constant;-dirichlet_boundary;0;-dirichlet_fraction;0;-perturb_row;100;-dim;2;-n;21"
            "2d_zero_y;1;-zero_y;-dim;2;-da_grid_x;31;-da_grid_y;9"
            "3d_star;1;-dim;3;-da_grid_x;13;-da_grid_y;11;-da_grid_z;9"
            "3d_box_periodic;1;-dim;3;-kind;box;-periodic;-n;9"
            "3d_constant_box_periodic;1;-constant;-dirichlet_boundary;0;-dirichlet_fraction;0;-periodic;-dim;3;-kind;box;-n;9"
            "dof2_1d_periodic;1;-dof;2;-dim;1;-n;41;-periodic"
            "dof3_2d_box_periodic;1;-dof;3;-dim;2;-kind;box;-periodic;-n;11"
            "dof4_2d_box_on_star;1;-dof;4;-dim;2;-kind;box;-da_stencil;star;-prealloc_only;-n;13"
            "dof5_3d_box;1;-dof;5;-dim;3;-kind;box;-n;7"
            "dof8_2d_star;1;-dof;8;-dim;2;-n;11"
            "np2_1d_periodic;2;-dim;1;-n;45;-periodic"
            "np2_3d_box;2;-dim;3;-kind;box;-n;10"
            "np2_2d_box_on_star;2;-dim;2;-kind;box;-da_stencil;star;-prealloc_only;-n;15"
            "np2_3d_constant;2;-constant;-dirichlet_boundary;0;-dirichlet_fraction;0;-dim;3;-n;11"
            "np2_dof3_3d_periodic;2;-dof;3;-dim;3;-periodic;-n;8"
            "np4_2d_box_on_star;4;-dim;2;-kind;box;-da_stencil;star;-n;13;-da_processors_x;2;-da_processors_y;2"
            "np4_2d_thin;4;-dim;2;-da_grid_x;11;-da_grid_y;6;-da_processors_x;4;-da_processors_y;1"
            "np4_dof2_3d_box_periodic;4;-dof;2;-dim;3;-kind;box;-periodic;-n;9")
    list(POP_FRONT t name np)
    set(labels "cuda")
    if(np GREATER 1)
      set(labels "cuda;mpi")
    endif()
    hjacobi_add_test(NAME cuda_extract_${name} NP ${np} LABELS "${labels}" FAIL "hjtest FAIL" PASS "hjtest PASS all" COMMAND ${EX} ${t})
  endforeach()
endif()
