# test_subpc: hjacobi in other roles: symmetric storage (SBAIJ read through an AIJ copy), PCASM with DMDA subdomains,
# PCFIELDSPLIT of a DMDA's fields. Included from test/CMakeLists.txt.
set(SP test_subpc)
hj_test(role_sbaij_2d 1 host ${SP} -mode sbaij -symmetric -mat_getrow_uppertriangular -dim 2 -kind box -da_grid_x 19 -da_grid_y 14 -pc_hjacobi_tile 5
  -pc_hjacobi_subiterations 3 -pc_hjacobi_omega 0.8)
hj_test(role_sbaij_np2_3d_ov   2 mpi ${SP} -mode sbaij -symmetric -dim 3 -n 9 ${T4O2K2} -pc_hjacobi_cycles 2)
hj_test(role_sbaij_dof2_np4    4 "mpi;dof" ${SP} -mode sbaij -symmetric -dof 2 -dim 2 -n 13 -pc_hjacobi_tile 4 -pc_hjacobi_subiterations 2)
hj_test(role_asm_np2_2d        2 mpi ${SP} -mode asm -dim 2 -kind box -da_grid_x 23 -da_grid_y 17 ${T5O2K3} -pc_hjacobi_cycles 2 -pc_hjacobi_omega 0.9)
hj_test(role_asm_np4_3d        4 mpi ${SP} -mode asm -dim 3 -da_grid_x 9 -da_grid_y 11 -da_grid_z 7 ${T4O2K2} -pc_hjacobi_cycles 3)
hj_test(role_asm_1d            1 host ${SP} -mode asm -dim 1 -n 47 -pc_hjacobi_tile 9 -pc_hjacobi_overlap 4 -pc_hjacobi_subiterations 2)
hj_test(role_fieldsplit_dof3   1 "host;dof" ${SP} -mode fieldsplit -dof 3 -dim 2 -da_grid_x 15 -da_grid_y 12 ${T5O2K2} -pc_hjacobi_cycles 2)
hj_test(role_fieldsplit_np2_3d 2 "mpi;dof" ${SP} -mode fieldsplit -dof 2 -dim 3 -kind box -n 8 -pc_hjacobi_tile 4 -pc_hjacobi_subiterations 3 -pc_hjacobi_omega 0.8)
