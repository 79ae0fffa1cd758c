# floors.sh: the floors of src/lib and their ranks (doc/DESIGN.md), for
# check-layers.sh and check-readmes.sh to source: mmc, then cd, then
# transport, then the emulated drive (sim), then core, then probe and
# hazards (side by side, neither includes the other), then book, then
# engine, then jobs.  A folder not listed ranks above them all.
FLOORS="mmc cd transport sim core probe hazards book engine jobs"
rank() {
	case $1 in
	mmc) echo 0 ;; cd) echo 1 ;; transport) echo 2 ;; sim) echo 3 ;;
	core) echo 4 ;; probe) echo 5 ;; hazards) echo 5 ;; book) echo 6 ;;
	engine) echo 7 ;; jobs) echo 8 ;; *) echo 9 ;;
	esac
}
