!
!  iotuner: stands in for upstream's pnetcdf_m.f90 so that BTIO builds without
!  PnetCDF. Only the MPI-IO methods (0: collective, 1: independent) are used;
!  asking for a PnetCDF method (2, 3) stops with a message.
!
      module pnetcdf_m
      use mpi
      use header
      implicit none

      integer, parameter :: NF_NOERR = 0
      ! bt.f90 reports these PnetCDF timers; the MPI-IO methods leave them 0
      double precision :: t_create = 0, t_post_w = 0, t_wait_w = 0
      double precision :: t_open = 0, t_post_r = 0, t_wait_r = 0

      contains

      integer function pnetcdf_setup(io_mode, io_method)
      implicit none
      character io_mode
      integer io_method
      if (rank .EQ. 0) print *, &
          'This BTIO was built without PnetCDF: use IO method 0 or 1'
      pnetcdf_setup = 0
      end function pnetcdf_setup

      subroutine pnetcdf_write
      end subroutine pnetcdf_write

      subroutine pnetcdf_read
      end subroutine pnetcdf_read

      subroutine pnetcdf_cleanup
      end subroutine pnetcdf_cleanup

      integer function nfmpi_inq_malloc_max_size(malloc_size)
      implicit none
      integer(kind=MPI_OFFSET_KIND) malloc_size
      malloc_size = 0
      nfmpi_inq_malloc_max_size = 1
      end function nfmpi_inq_malloc_max_size

      integer function nfmpi_inq_malloc_size(malloc_size)
      implicit none
      integer(kind=MPI_OFFSET_KIND) malloc_size
      malloc_size = 0
      nfmpi_inq_malloc_size = 1
      end function nfmpi_inq_malloc_size

      end module pnetcdf_m
