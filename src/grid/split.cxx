/* The tiles of a cycle split by whether they read a value that the ghost exchange writes (issue 13, item 3): the
   "interior" tiles run between PetscSFBcastBegin and PetscSFBcastEnd, hiding the exchange, the others after it. Tiles
   are independent within a cycle (each reads x, writes its own owned points), so the order changes no bit of the
   result; only what an interior tile reads must be complete before it runs, and it reads no ghost. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include "arith/point.hpp"

/* The sides of the padded box that the ghost SF writes: lo[d]/hi[d] when some leaf (a point of the ghost layer)
   has padded coordinate 0 / ext[d]-1 in direction d. Read from the SF itself, not re-derived from the layout, so that
   the split follows whatever the exchange does (a neighbour rank or a periodic wrap; a physical boundary's zero layer
   has no leaf). Every leaf lies on one of the sides it marks, so a tile reading no point of a marked side reads no
   leaf. */
static PetscErrorCode HJGhostSides(const HJLayout *L, PetscSF sf, PetscBool lo[3], PetscBool hi[3])
{
  PetscInt        nleaves;
  const PetscInt *ilocal;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) lo[d] = hi[d] = PETSC_FALSE;
  PetscCall(PetscSFGetGraph(sf, NULL, &nleaves, &ilocal, NULL));
  for (PetscInt l = 0; l < nleaves; l++) {
    const PetscInt q    = (ilocal ? ilocal[l] : l) / L->dof; /* padded point of the leaf */
    const PetscInt p[3] = {q % L->ext[0], (q / L->ext[0]) % L->ext[1], q / (L->ext[0] * L->ext[1])};
    for (PetscInt d = 0; d < L->dim; d++) {
      if (p[d] == 0) lo[d] = PETSC_TRUE;
      if (p[d] == L->ext[d] - 1) hi[d] = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Split the tiles of this rank's box (tile t[d], overlap o[d]; unused directions t = 1, o = 0) by the ghost SF sf:
   *ids lists every tile id (ti + nt0*(tj + nt1*tk), the order of a kernel's blockIdx.x and of the host loop), the
   *ninterior interior ones first, each group in increasing order. A tile is interior when in every direction d where
   it reads a one-point halo (halo[d]: a kernel that reads no halo along d, as the CUDA rows kernel along y, passes
   false) its working region neither starts at 0 on a low side the exchange writes nor ends at xm[d] on such a high
   side. *ids is NULL (and *ninterior 0) when sf is NULL: nothing is exchanged. */
PetscErrorCode HJTileSplitCreate(const HJLayout *L, PetscSF sf, const PetscInt t[3], const PetscInt o[3], const PetscBool halo[3], PetscInt *ninterior, PetscInt *ntiles, PetscInt **ids)
{
  PetscBool lo[3], hi[3];
  long long nt[3], n;
  PetscInt  ni = 0, nb = 0, *boundary;

  PetscFunctionBegin;
  *ninterior = 0;
  *ids       = NULL;
  for (PetscInt d = 0; d < 3; d++) nt[d] = hj::NumTiles(L->xm[d], t[d], o[d]);
  n       = nt[0] * nt[1] * nt[2];
  *ntiles = (PetscInt)n;
  if (!sf) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HJGhostSides(L, sf, lo, hi));
  PetscCall(PetscMalloc1(n, ids));
  PetscCall(PetscMalloc1(n, &boundary));
  for (long long id = 0; id < n; id++) {
    const long long c[3]     = {hj::TileCoord(id, nt[0], nt[1], 0), hj::TileCoord(id, nt[0], nt[1], 1), hj::TileCoord(id, nt[0], nt[1], 2)};
    PetscBool       interior = PETSC_TRUE;
    for (PetscInt d = 0; d < L->dim; d++) {
      const hj::Range r = hj::TileRange(L->xm[d], t[d], o[d], c[d]);
      if (halo[d] && ((lo[d] && r.w0 == 0) || (hi[d] && r.w1 == L->xm[d]))) interior = PETSC_FALSE;
    }
    if (interior) (*ids)[ni++] = (PetscInt)id;
    else boundary[nb++] = (PetscInt)id;
  }
  PetscCall(PetscArraycpy(*ids + ni, boundary, nb));
  PetscCall(PetscFree(boundary));
  *ninterior = ni;
  PetscFunctionReturn(PETSC_SUCCESS);
}
