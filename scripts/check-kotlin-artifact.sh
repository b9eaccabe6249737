#!/usr/bin/env bash
# The Kotlin client as an app's build takes it: a Java project (clients/kotlin/consumer) that names
# org.themed:themed-client in one dependency line, built offline by Debian's maven from out/maven
# and Debian's own repository (/usr/share/maven-repo), then run against a real themed.
#   scripts/check-kotlin-artifact.sh THEMED_BINARY THEMES_FOLDER VERSION
set -euo pipefail
themed=$1 themes=$2 version=$3
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
# A local repository of Debian's packages (linked, not copied) and the artifact `make kotlin-client` wrote.
mkdir -p "$work/repository"
cp -rs /usr/share/maven-repo/. "$work/repository/"
cp -r out/maven/. "$work/repository/"
cp -r clients/kotlin/consumer "$work/consumer"
# compiler:compile resolves the compile classpath: the artifact, and kotlin-stdlib through its POM.
(cd "$work/consumer" && mvn --offline --batch-mode --quiet -Dmaven.repo.local="$work/repository" -Dthemed.version="$version" compiler:compile) \
  || { echo "check-kotlin-artifact: the consumer did not build offline"; exit 1; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$themed" serve --themes "$themes" --db "$work/index.sqlite" --blobs "$work/blobs" --port "$port" > "$work/themed.log" 2>&1 &
server=$!
for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break; sleep 0.05; done
# The run's classpath from the artifact's POM: its jar and each dependency it declares, from the repository.
pom="$work/repository/org/themed/themed-client/$version/themed-client-$version.pom"
classpath=$(python3 - "$pom" "$work/repository" <<'PY'
import os, sys, xml.etree.ElementTree as tree
pom, repository = sys.argv[1], sys.argv[2]
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
root = tree.parse(pom).getroot()
def jar(group, artifact, version):
    path = os.path.join(repository, *group.split("."), artifact, version, "%s-%s.jar" % (artifact, version))
    if not os.path.isfile(path):
        sys.exit("check-kotlin-artifact: %s:%s:%s is not in the repository" % (group, artifact, version))
    return path
paths = [jar(*(root.find("m:" + f, ns).text for f in ("groupId", "artifactId", "version")))]
for dependency in root.findall("m:dependencies/m:dependency", ns):
    paths.append(jar(*(dependency.find("m:" + f, ns).text for f in ("groupId", "artifactId", "version"))))
print(":".join(paths))
PY
)
output=$(java -cp "$work/consumer/target/classes:$classpath" example.App "http://127.0.0.1:$port" "$work/cache")
echo "$output"
grep -q '^primary #' <<<"$output" && grep -q '^offline false' <<<"$output" && grep -q '^palette light FETCHED' <<<"$output" \
  || { echo "check-kotlin-artifact: the consumer did not get its palette"; exit 1; }
echo "check-kotlin-artifact: org.themed:themed-client:$version resolved offline, built a Java consumer and served it"
