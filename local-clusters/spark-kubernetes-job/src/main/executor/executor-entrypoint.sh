#!/bin/sh
# A Spark executor pod's command (the "executor" branch of the official image's entrypoint.sh): Spark passes
# everything in environment variables; SPARK_JAVA_OPT_<n> are the JVM options, in order.
set -e
set --
for name in $(env | grep '^SPARK_JAVA_OPT_' | cut -d= -f1 | sort -t_ -k4 -n); do
  eval "set -- \"\$@\" \"\$$name\""
done
exec java "$@" -Xms"$SPARK_EXECUTOR_MEMORY" -Xmx"$SPARK_EXECUTOR_MEMORY" -cp "$(dirname "$0")/*" \
  org.apache.spark.scheduler.cluster.k8s.KubernetesExecutorBackend \
  --driver-url "$SPARK_DRIVER_URL" --executor-id "$SPARK_EXECUTOR_ID" --cores "$SPARK_EXECUTOR_CORES" \
  --app-id "$SPARK_APPLICATION_ID" --hostname "$SPARK_EXECUTOR_POD_IP" \
  --resourceProfileId "$SPARK_RESOURCE_PROFILE_ID" --podName "$SPARK_EXECUTOR_POD_NAME"
