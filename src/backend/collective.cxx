/* Configuration errors whose condition can differ between ranks (a rank's box against the tile, its device's limits,
   an allocation): raised on every rank, so that no rank goes on to the ghost exchange and waits there for a rank that
   stopped. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include <stdarg.h>

/* Collective on comm: every rank calls it at the same point with its own `ok`. If some rank is not ok, every rank
   raises the error code and message of the lowest such rank, naming it and how many ranks failed. */
PetscErrorCode HJCheckCollective(MPI_Comm comm, PetscBool ok, PetscErrorCode code, const char *fmt, ...)
{
  PetscMPIInt rank, size, mine, first, nfail;
  char        msg[1024] = "";
  int         ecode     = (int)code;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  mine = ok ? size : rank;
  PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm)); /* the lowest failing rank; size: none */
  if (first == size) PetscFunctionReturn(PETSC_SUCCESS);
  {
    mine = ok ? 0 : 1;
    PetscCallMPI(MPI_Allreduce(&mine, &nfail, 1, MPI_INT, MPI_SUM, comm));
    if (rank == first) {
      va_list Argp;
      size_t  len;
      va_start(Argp, fmt);
      PetscCall(PetscVSNPrintf(msg, sizeof(msg), fmt, &len, Argp));
      va_end(Argp);
    }
    PetscCallMPI(MPI_Bcast(msg, (PetscMPIInt)sizeof(msg), MPI_CHAR, first, comm));
    PetscCallMPI(MPI_Bcast(&ecode, 1, MPI_INT, first, comm));
    SETERRQ(comm, (PetscErrorCode)ecode, "%s [on rank %d; %d of %d ranks failed]", msg, first, nfail, size);
  }
}
