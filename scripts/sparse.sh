#!/bin/sh
# sparse as kbuild's CHECK (make C=2 CHECK=scripts/sparse.sh): Debian 12's
# sparse 0.6.4 knows riscv's single-letter extensions but not the named
# ones, and stops at "invalid argument to '-march':
# '_zicsr_zifencei_zicbom_zihintpause'" on every file.  Only those
# extensions, which the compiler already checked, are cut from -march;
# sparse sees every other argument as kbuild passes it.
for arg; do
	shift
	case $arg in
	-march=rv*_*) arg=${arg%%_*} ;;
	esac
	set -- "$@" "$arg"
done
exec sparse "$@"
