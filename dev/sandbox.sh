#!/usr/bin/env bash
# Builds the distribution and runs the main job. The sandbox command is not in the launcher yet, so
# this shows the launcher's help; it becomes `colocation sandbox` when the sandbox lands.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package
exec dist/target/colocation/bin/colocation help
