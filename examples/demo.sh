#!/usr/bin/env bash
# What `make demo` runs: the paper's 2D experiment, then hierarchical Jacobi as a multigrid smoother. Under a minute on
# two CPU cores. Usage: examples/demo.sh BUILD_DIR. DEMO_NP=2 runs on 2 MPI ranks (launcher: $MPIEXEC, else mpiexec).
# With a CUDA PETSc (PETSC_DIR, else the one the build was configured with) and a GPU, everything runs on the GPU.
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR}
ex=$build/examples
for p in poisson2d mg3d; do
  [ -x "$ex/$p" ] || { echo "demo: $ex/$p is missing; build first (make)" >&2; exit 1; }
done

np=${DEMO_NP:-1}
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
run() { # prints the command, runs it, hides the machine-readable RESULT lines
  echo "\$ $(basename "$1") ${*:2}"
  if [ "$np" -gt 1 ]; then "${MPIEXEC:-mpiexec}" -n "$np" "$@"; else "$@"; fi > "$out"
  grep -v '^RESULT' "$out" | sed 's/^/    /'
  echo
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

petsc_dir=${PETSC_DIR:-$(sed -n 's/^PETSC_DIR:PATH=//p' "$build/CMakeCache.txt" 2>/dev/null)}
gpu=() n=128 where="the CPU"
if grep -qs 'define PETSC_HAVE_CUDA 1' "$petsc_dir/${PETSC_ARCH:-}/include/petscconf.h" "$petsc_dir/include/petscconf.h" &&
  nvidia-smi -L > /dev/null 2>&1; then
  gpu=(-dm_vec_type cuda -dm_mat_type aijcusparse) n=256 where="the GPU"
fi

echo "petsc-hjacobi demo, on $where, $np MPI rank(s)"
echo
echo "1. The paper's 2D experiment (Islam & Wang 2020): the Poisson equation on a $n x $n grid, solved by"
echo "   Richardson iteration twice: with stock PETSc's Jacobi (one sweep over the grid per iteration), and with"
echo "   hierarchical Jacobi: the grid is cut into 32x32 tiles, overlapping by 2 points; in each cycle every tile does"
echo "   16 Jacobi sweeps on its own points (on a GPU: in fast shared memory), then the tiles exchange their edges."
echo
run "$ex/poisson2d" -n "$n" -pc_hjacobi_tile 32 -pc_hjacobi_subiterations 16 -pc_hjacobi_overlap 2 "${gpu[@]}"
echo "   The same tiles and sweeps with Chebyshev weights: sweep j of the 16 damps by 1/l_j, l_j the Chebyshev"
echo "   nodes of the tile's spectrum, so that every tile is solved far better at the same cost (the paper's sweeps all use"
echo "   one weight)."
echo
run "$ex/poisson2d" -n "$n" -jacobi false -pc_hjacobi_tile 32 -pc_hjacobi_subiterations 16 -pc_hjacobi_overlap 2 -pc_hjacobi_weights chebyshev_squared "${gpu[@]}"

mn=65
[ "$where" = "the CPU" ] && mn=97
echo "2. Hierarchical Jacobi as the smoother of geometric multigrid: 3D Poisson on a $mn^3 grid, FGMRES + PCMG with"
echo "   -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi (omega chosen from the operator at setup); then PETSc's"
echo "   Chebyshev/Jacobi smoother$([ "$where" = "the CPU" ] && echo " and, on the CPU, Richardson/SOR (Gauss-Seidel, the strongest CPU smoother here)")."
echo
run "$ex/mg3d" -da_grid_x $mn -da_grid_y $mn -da_grid_z $mn "${gpu[@]}"
echo "   The same multigrid as -pc_type hjmg: PCMG with hjacobi smoothers by default, whose levels also take their residual"
echo "   b - A x from the stencil the smoother extracted and interpolate and restrict on the grid (checked against the"
echo "   assembled interpolation at setup): no sparse matrix product."
echo
run "$ex/mg3d" -da_grid_x $mn -da_grid_y $mn -da_grid_z $mn -pc_type hjmg "${gpu[@]}"
echo "   hjmg as the solver itself: -ksp_type richardson runs PCMG's own iteration (one V-cycle and one residual norm per"
echo "   iteration, no Krylov vectors): on a GPU the fastest way to use it, where FGMRES's vector work costs as much as"
echo "   the V-cycle; on the CPU about the same as FGMRES."
echo
run "$ex/mg3d" -da_grid_x $mn -da_grid_y $mn -da_grid_z $mn -pc_type hjmg -ksp_type richardson "${gpu[@]}"
run "$ex/mg3d" -da_grid_x $mn -da_grid_y $mn -da_grid_z $mn -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi "${gpu[@]}"
[ "$where" = "the CPU" ] && run "$ex/mg3d" -da_grid_x $mn -da_grid_y $mn -da_grid_z $mn -mg_levels_ksp_type richardson -mg_levels_pc_type sor

if [ -x "$ex/helmholtz" ]; then # PETSc with complex scalars
  hn=257 hk=40
  [ "$where" = "the GPU" ] && hn=513
  echo "3. Complex scalars: the Helmholtz equation at wavenumber $hk on a $hn^2 grid, GMRES with multigrid on the complex-shifted"
  echo "   Laplacian, smoothed by hierarchical Jacobi (a damped sweep, k 1, omega 0.7), then by Chebyshev/Jacobi."
  echo
  run "$ex/helmholtz" -da_grid_x "$hn" -da_grid_y "$hn" -k "$hk" -mg_levels_pc_hjacobi_subiterations 1 -mg_levels_pc_hjacobi_omega 0.7 "${gpu[@]}"
  run "$ex/helmholtz" -da_grid_x "$hn" -da_grid_y "$hn" -k "$hk" -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -ksp_max_it 1000 "${gpu[@]}"
fi

echo "Next: any program takes -help; try other -pc_hjacobi_subiterations / -pc_hjacobi_overlap / -pc_hjacobi_tile values,"
echo "or examples/varcoef2d (CG on a variable-coefficient problem). Every option: <program> -help."
