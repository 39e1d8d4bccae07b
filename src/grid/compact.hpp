/* A star forest's compact twin (the CUDA backend's staged exchange, cuda/exchange.cu; tested alone by
   test/test_compact.cxx on random graphs): roots = one slot per (leaf, root it reads) on the root's rank, in the
   order of PetscSFGetLeafRanks() (the roots each rank reads), leaves = g's leaves in the order of
   PetscSFGetRootRanks() (grouped by the rank they read), both contiguous. Then for any root data R and leaf data L of
   g: send[s] = R[idx[s]] (s < nsend), a broadcast of send over the compact SF into recv, L[idx[nsend + i]] = recv[i]
   (i < nrecv) is g's broadcast of R into L.
   How each leaf finds its slot: every rank sends each reader the root indices of that reader's part (and where the
   part starts); the reader looks its leaves' roots up in that list. No array indexed by g's roots is made (they are a
   padded grid's points: 8.8 million per rank at 257^3 on two ranks, where a reduction and a broadcast over such
   arrays took 42 ms on the development VM), only arrays of g's leaves: the cost is that of the ghost layer. Needs g
   set up; collective. */
#pragma once

#include <petscsf.h>
#include <petschjacobi/compat.h>
#include <type_traits>

namespace hj
{
namespace detail
{
/* the type PetscSFGetRootRanks() counts ranks in (PetscInt up to PETSc 3.20, PetscMPIInt since) */
template <class F>
struct RankCount;
template <class A, class B, class... R>
struct RankCount<PetscErrorCode (*)(A, B, R...)> {
  using type = std::remove_pointer_t<B>;
};
} // namespace detail

static inline PetscErrorCode SFCompact(PetscSF g, PetscSF *c, PetscInt *nsend, PetscInt *nrecv, PetscInt **idx)
{
  using NR = typename detail::RankCount<decltype(&PetscSFGetRootRanks)>::type;
  MPI_Comm           comm;
  PetscMPIInt        me, tag;
  NR                 nr, ni;
  const PetscMPIInt *ranks, *iranks;
  const PetscInt    *roffset, *rmine, *rremote, *ioffset, *irootloc;
  PetscInt          *sbuf, **rbuf, *keys, *perm, *ix, selfj = -1;
  MPI_Request       *req;
  MPI_Status        *st;
  PetscSFNode       *remote;
  int                nreq = 0;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)g, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &me));
  PetscCall(PetscSFGetRootRanks(g, &nr, &ranks, &roffset, &rmine, &rremote)); /* as a reader: my leaves by the rank they read */
  PetscCall(PetscSFGetLeafRanks(g, &ni, &iranks, &ioffset, &irootloc));       /* as an owner: the roots each rank reads */
  *nsend = ioffset[ni];
  *nrecv = roffset[nr];

  /* to each reader: [the start of its part in my slots, its part's root indices]; from each owner the same */
  PetscCall(PetscCommGetNewTag(comm, &tag));
  PetscCall(PetscMalloc1(*nsend + ni, &sbuf));
  PetscCall(PetscMalloc1(nr, &rbuf));
  PetscCall(PetscMalloc2(ni + nr, &req, ni + nr, &st));
  for (PetscInt j = 0; j < (PetscInt)ni; j++)
    if (iranks[j] == me) selfj = j;
  for (PetscInt k = 0; k < (PetscInt)nr; k++) { /* the receives first: their statuses are then req's first */
    if (ranks[k] == me) {
      PetscCheck(selfj >= 0 && ioffset[selfj + 1] - ioffset[selfj] == roffset[k + 1] - roffset[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "The star forest's references to its own rank do not match");
      rbuf[k] = sbuf + ioffset[selfj] + selfj;
    } else {
      PetscMPIInt n;

      PetscCall(PetscMPIIntCast(roffset[k + 1] - roffset[k] + 1, &n));
      PetscCall(PetscMalloc1(n, &rbuf[k]));
      PetscCallMPI(MPI_Irecv(rbuf[k], n, MPIU_INT, ranks[k], tag, comm, &req[nreq++]));
    }
  }
  for (PetscInt j = 0; j < (PetscInt)ni; j++) {
    PetscInt *m = sbuf + ioffset[j] + j;

    m[0] = ioffset[j];
    for (PetscInt q = ioffset[j]; q < ioffset[j + 1]; q++) m[1 + q - ioffset[j]] = irootloc[q];
    if (j != selfj) {
      PetscMPIInt n;

      PetscCall(PetscMPIIntCast(ioffset[j + 1] - ioffset[j] + 1, &n));
      PetscCallMPI(MPI_Isend(m, n, MPIU_INT, iranks[j], tag, comm, &req[nreq++]));
    }
  }
  PetscCallMPI(MPI_Waitall(nreq, req, st)); /* a part longer than this rank's leaves from that owner: MPI's truncation error */
  for (PetscInt k = 0, r = 0; k < (PetscInt)nr; k++) {
    PetscMPIInt got;

    if (ranks[k] == me) continue;
    PetscCallMPI(MPI_Get_count(&st[r++], MPIU_INT, &got));
    PetscCheck(got == roffset[k + 1] - roffset[k] + 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Rank %d sent %d entries for the %" PetscInt_FMT " leaves that read it", (int)ranks[k], (int)got - 1, roffset[k + 1] - roffset[k]);
  }

  /* idx: the root of every slot (the parts as the owners list them), then the location of every leaf */
  PetscCall(PetscMalloc1(*nsend + *nrecv, &ix));
  for (PetscInt q = 0; q < *nsend; q++) ix[q] = irootloc[q];
  PetscCall(PetscMalloc1(*nrecv, &remote));
  PetscCall(PetscMalloc2(*nrecv, &keys, *nrecv, &perm));
  for (PetscInt k = 0; k < (PetscInt)nr; k++) {
    const PetscInt n = roffset[k + 1] - roffset[k], start = rbuf[k][0];

    for (PetscInt p = 0; p < n; p++) {
      keys[p] = rbuf[k][1 + p];
      perm[p] = p;
    }
    PetscCall(PetscSortIntWithArray(n, keys, perm));
    for (PetscInt p = 0; p < n; p++) {
      const PetscInt m = roffset[k] + p;
      PetscInt       loc;

      PetscCall(PetscFindInt(rremote[m], n, keys, &loc));
      PetscCheck(loc >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Rank %d does not send root %" PetscInt_FMT ", which leaf %" PetscInt_FMT " reads", (int)ranks[k], rremote[m], rmine[m]);
      remote[m].rank  = ranks[k];
      remote[m].index = start + perm[loc];
      ix[*nsend + m]  = rmine[m];
    }
    if (ranks[k] != me) PetscCall(PetscFree(rbuf[k]));
  }
  PetscCall(PetscFree2(keys, perm));
  PetscCall(PetscFree2(req, st));
  PetscCall(PetscFree(rbuf));
  PetscCall(PetscFree(sbuf));
  PetscCall(PetscSFCreate(comm, c));
  PetscCall(PetscSFSetGraph(*c, *nsend, *nrecv, NULL, PETSC_OWN_POINTER, remote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(*c));
  *idx = ix;
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace hj
