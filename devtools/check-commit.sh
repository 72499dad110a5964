#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
#
# Check the commit messages of a change:
#   - the subject: "area: what", at most 72 characters, one topic (no ';'
#     joining two), no trailing period;
#   - a blank line between subject and body; body lines at most 75 characters
#     (a line without a space, such as a long path or URL, is let through);
#   - no path of the machine it was written on (/work/, /root/, /home/).
#
#   devtools/check-commit.sh [RANGE]
#
# RANGE defaults to the commits after devtools/commit-check-base, the commit
# from which these rules apply (earlier history is left as it is).
set -eu
cd "$(dirname "$0")/.."
range=${1:-$(cat devtools/commit-check-base)..HEAD}
bad=0
for c in $(git rev-list --no-merges "$range"); do
	short=$(git rev-parse --short "$c")
	subject=$(git log -1 --format=%s "$c")
	say() { echo "check-commit: $short \"$subject\": $1"; bad=$((bad + 1)); }
	[ ${#subject} -le 72 ] || say "subject of ${#subject} characters (at most 72)"
	echo "$subject" | grep -Eq '^[a-z0-9_/.+-]+(, [a-z0-9_/.+-]+)*: [^ ]' ||
		say "subject is not \"area: what\""
	case "$subject" in
	*';'*) say "subject joins topics with ';': one topic a commit" ;;
	*.) say "subject ends with a period" ;;
	esac
	second=$(git log -1 --format=%B "$c" | sed -n 2p)
	[ -z "$second" ] || say "no blank line after the subject"
	git log -1 --format=%b "$c" | awk -v n=0 '
		length($0) > 75 && index($0, " ") != 0 { n++ }
		END { exit n != 0 }' || say "body lines over 75 characters"
	if git log -1 --format=%B "$c" | grep -Eq '(^|[ "(`])/(work|root|home)/'; then
		say "a path of the machine it was written on"
	fi
done
n=$(git rev-list --no-merges --count "$range")
if [ "$bad" -ne 0 ]; then
	echo "check-commit: $bad problem(s) in $n commit(s) of $range"
	exit 1
fi
echo "check-commit: $n commit(s) of $range: ok"
