# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check: optprobe_target_marker.ko's markers in
# /sys/kernel/debug/optprobe/markers, one line per site,
#   MODULE NAME SYMBOL+OFF NPROBES HITS "FORMAT"
# while optprobe_test_marker.ko's probe on tm_inline (two sites) is still
# registered; its hits at each site are in that module's parameters.
# Prints its own KTAP block.
markers=/sys/kernel/debug/optprobe/markers
params=/sys/module/optprobe_test_marker/parameters
M=optprobe_target_marker
n=0
check() { # check NAME COMMAND...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name # $*"; fi
}
# site NAME FUNCTION: the line of marker NAME's site in FUNCTION
site() { awk -v m=$M -v n="$1" -v f="$2" '$1 == m && $2 == n && index($3, f "+") == 1' $markers; }
# is LINE NPROBES HITS FORMAT: LINE has these fields (HITS -: any number).
# NPROBES and HITS are the two fields before the format, which starts at
# the first quote and may hold spaces.
is() {
	want_probes=$2 want_hits=$3 want_format=$4
	format="\"${1#*\"}"
	set -- ${1%%\"*}
	[ $# -eq 5 ] || return 1
	shift $(($# - 2))
	[ "$1" = "$want_probes" ] && [ "$format" = "$want_format" ] &&
		{ [ "$want_hits" = - ] || [ "$2" = "$want_hits" ]; }
}

echo "KTAP version 1"
echo "1..6"
check every_marker_listed test "$(awk -v m=$M '$1 == m { print $2 }' $markers | sort -u | wc -l)" = 17
check one_line_per_site test "$(awk -v m=$M '$1 == m' $markers | wc -l)" = 18
check inline_marker_two_sites test "$(awk -v m=$M '$1 == m && $2 == "tm_inline"' $markers | wc -l)" = 2
check inline_site_a "is" "$(site tm_inline optprobe_target_marker_inline_a)" 1 "$(cat $params/inline_hits_a)" '"%d %lu"'
check inline_site_b "is" "$(site tm_inline optprobe_target_marker_inline_b)" 1 "$(cat $params/inline_hits_b)" '"%d %lu"'
check unprobed_marker_no_probes "is" "$(site tm_noarg optprobe_target_marker_noarg)" 0 - '""'
