! rw_mpi: Fortran with `use mpi` writes and reads one shared file collectively.
!
! Usage: mpiexec -n N rw_mpi FILE
!
! Checks that the interposer sees the MPI-IO of Fortran programs: MPICH's Fortran
! bindings call the C MPI_ routines, Open MPI's call the PMPI_ ones, and the interposer
! wraps both. Each rank writes its block of 64-bit integers with MPI_File_write_at_all,
! reads the file back with MPI_File_read_at_all and compares (exit 1 on a difference);
! rank 0 then prints the hints MPI reports (MPI_File_get_info) as `info KEY=VALUE`
! lines and `checked N words`.
program rw_mpi
  use mpi
  implicit none
  integer, parameter :: nwords = 32768
  integer(kind=8) :: out(nwords), in(nwords)
  integer :: ierr, rank, nprocs, fh, i, errors, total
  integer(kind=MPI_OFFSET_KIND) :: offset
  character(len=1024) :: path

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (command_argument_count() /= 1) then
    if (rank == 0) write (0, '(a)') 'usage: rw_mpi FILE'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call get_command_argument(1, path)
  do i = 1, nwords
    out(i) = int(rank, 8) * 1000000007_8 + int(i, 8) * 7919_8
  end do
  in = 0
  offset = int(rank, MPI_OFFSET_KIND) * nwords * 8

  call MPI_File_open(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, &
                     MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) then
    write (0, '(a,i0)') 'MPI_File_open failed on rank ', rank
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  errors = 0
  call MPI_File_write_at_all(fh, offset, out, nwords, MPI_INTEGER8, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) errors = errors + 1
  call MPI_File_sync(fh, ierr)
  if (ierr /= MPI_SUCCESS) errors = errors + 1
  call MPI_File_read_at_all(fh, offset, in, nwords, MPI_INTEGER8, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) errors = errors + 1
  errors = errors + count(in /= out)
  if (rank == 0) call print_info(fh)
  call MPI_File_close(fh, ierr)

  call MPI_Allreduce(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == 0) then
      write (*, '(a,i0,a)') 'checked ', nwords * nprocs, ' words'
    else
      write (*, '(i0,a)') total, ' errors'
    end if
    flush (6)
  end if
  call MPI_Finalize(ierr)
  if (total /= 0) stop 1

contains

  subroutine print_info(fh)
    integer, intent(in) :: fh
    integer :: info, nkeys, k, ierr
    character(len=MPI_MAX_INFO_KEY) :: key
    character(len=MPI_MAX_INFO_VAL) :: value
    logical :: flag
    call MPI_File_get_info(fh, info, ierr)
    if (ierr /= MPI_SUCCESS) return
    call MPI_Info_get_nkeys(info, nkeys, ierr)
    do k = 0, nkeys - 1
      call MPI_Info_get_nthkey(info, k, key, ierr)
      call MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, flag, ierr)
      if (flag) write (*, '(a)') 'info '//trim(key)//'='//trim(value)
    end do
    call MPI_Info_free(info, ierr)
  end subroutine print_info

end program rw_mpi
