/* hj::SFCompact (src/grid/compact.hpp, the CUDA backend's staged exchange) on random star forests: gathering the
   roots into the compact SF's slots, broadcasting over it and scattering into the leaves must give g's own broadcast,
   leaf for leaf. Graphs: leaves read roots on random ranks (their own included), several leaves the same root, ranks
   with no roots or no leaves, leaves at scattered locations or contiguous. Run on 1 to 4 ranks; no GPU needed. */
#include "grid/compact.hpp"

static PetscErrorCode OneGraph(PetscRandom rnd, PetscInt trial, PetscInt *bad)
{
  MPI_Comm     comm = PETSC_COMM_WORLD;
  PetscMPIInt  rank, size;
  PetscInt     nroots, nleaves, space, *allroots, nsend, nrecv, *idx, *ilocal = NULL;
  PetscSFNode *iremote;
  PetscSF      g, c;
  PetscScalar *rootdata, *leafA, *leafB, *send, *recv;
  PetscReal    u;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscRandomGetValueReal(rnd, &u));
  nroots = (trial % 5 == 1 && rank == size - 1) ? 0 : (PetscInt)(u * 40); /* some rank may own no root */
  PetscCall(PetscMalloc1(size, &allroots));
  PetscCallMPI(MPI_Allgather(&nroots, 1, MPIU_INT, allroots, 1, MPIU_INT, comm));
  PetscCall(PetscRandomGetValueReal(rnd, &u));
  nleaves = (trial % 7 == 2 && rank == 0) ? 0 : (PetscInt)(u * 60);
  space   = 2 * nleaves + 3;
  PetscCall(PetscMalloc1(nleaves, &iremote));
  if (trial % 2) { /* scattered, distinct leaf locations in a space twice as large */
    PetscInt *perm;

    PetscCall(PetscMalloc1(space, &perm));
    for (PetscInt i = 0; i < space; i++) perm[i] = i;
    for (PetscInt i = space - 1; i > 0; i--) {
      PetscInt j, t;

      PetscCall(PetscRandomGetValueReal(rnd, &u));
      j       = (PetscInt)(u * (i + 1)) % (i + 1);
      t       = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    PetscCall(PetscMalloc1(nleaves, &ilocal));
    for (PetscInt i = 0; i < nleaves; i++) ilocal[i] = perm[i];
    PetscCall(PetscFree(perm));
  } else space = nleaves;
  for (PetscInt i = 0; i < nleaves; i++) {
    PetscMPIInt r;
    PetscInt    tries = 0;

    do { /* a rank with roots; few roots so that several leaves share one */
      PetscCall(PetscRandomGetValueReal(rnd, &u));
      r = (PetscMPIInt)((PetscInt)(u * size) % size);
    } while (!allroots[r] && ++tries < 100);
    if (!allroots[r]) { /* nobody owns a root: this leaf reads nothing; drop it */
      nleaves = i;
      break;
    }
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    iremote[i].rank  = r;
    iremote[i].index = (PetscInt)(u * PetscMin(allroots[r], trial % 3 ? allroots[r] : 3)) % allroots[r];
  }
  PetscCall(PetscSFCreate(comm, &g));
  PetscCall(PetscSFSetGraph(g, nroots, nleaves, ilocal, PETSC_OWN_POINTER, iremote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(g));

  PetscCall(hj::SFCompact(g, &c, &nsend, &nrecv, &idx));
  PetscCall(PetscMalloc5(nroots, &rootdata, space, &leafA, space, &leafB, nsend, &send, nrecv, &recv));
  for (PetscInt r = 0; r < nroots; r++) rootdata[r] = (PetscScalar)(1000 * rank + r + 1) + (PetscScalar)0.25;
  for (PetscInt i = 0; i < space; i++) leafA[i] = leafB[i] = -1;
  PetscCall(PetscSFBcastBegin(g, MPIU_SCALAR, rootdata, leafA, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(g, MPIU_SCALAR, rootdata, leafA, MPI_REPLACE));
  for (PetscInt s = 0; s < nsend; s++) send[s] = rootdata[idx[s]];
  PetscCall(PetscSFBcastBegin(c, MPIU_SCALAR, send, recv, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(c, MPIU_SCALAR, send, recv, MPI_REPLACE));
  for (PetscInt i = 0; i < nrecv; i++) leafB[idx[nsend + i]] = recv[i];
  PetscCheck(nrecv == nleaves, PETSC_COMM_SELF, PETSC_ERR_PLIB, "compact SF has %" PetscInt_FMT " leaves, g %" PetscInt_FMT, nrecv, nleaves);
  for (PetscInt i = 0; i < space; i++)
    if (leafA[i] != leafB[i]) (*bad)++;
  PetscCall(PetscFree5(rootdata, leafA, leafB, send, recv));
  PetscCall(PetscFree(idx));
  PetscCall(PetscFree(allroots));
  PetscCall(PetscSFDestroy(&c));
  PetscCall(PetscSFDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    trials = 60, bad = 0, gbad;
  PetscRandom rnd;
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, "hj::SFCompact on random star forests"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-trials", &trials, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, 0, 1));
  PetscCall(PetscRandomSetSeed(rnd, 7 + 101 * (unsigned long)rank));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt t = 0; t < trials; t++) PetscCall(OneGraph(rnd, t, &bad));
  PetscCallMPI(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s %" PetscInt_FMT " random star forests on %d ranks: %" PetscInt_FMT " leaves differ from the star forest's own broadcast\n", gbad ? "FAIL" : "PASS all", trials, (int)size, gbad));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}
