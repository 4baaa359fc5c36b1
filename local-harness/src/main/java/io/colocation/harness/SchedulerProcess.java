package io.colocation.harness;

import io.colocation.localclusters.LoopbackPorts;
import io.colocation.localclusters.process.ChildProcess;
import io.colocation.localclusters.process.PartFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The k8s-scheduler as an install runs it: {@code bin/colocation k8s-scheduler k8s-scheduler.yml}, its own process,
 * with a configuration written here (its name, the kubeconfig, a status port on loopback, the caller's settings) and a
 * profile whose LoadAwareScheduling has the caller's arguments. Started once it is ready ({@code /readyz}) and, when
 * asked, once the caller's own condition holds too (it leads, for one with leader election).
 */
public final class SchedulerProcess extends LoopbackPart {
    private SchedulerProcess(ChildProcess process, String url, LoopbackHttp http) {
        super(process, url, http);
    }

    /**
     * @param loadAwareArgs LoadAwareScheduling's arguments, a YAML mapping ({@code {usageThresholds: {cpu: 90}}})
     * @param quotaArgs     ElasticQuota's arguments, a YAML mapping, with the plugin enabled at PreFilter, PostFilter and
     *                      Reserve; null for a profile without it
     * @param settings      lines of {@code k8s-scheduler.yml} beyond its name, profile, kubeconfig and status
     * @param ready         a further condition of being started, or null
     */
    public static SchedulerProcess start(Path home, Path work, Path kubeconfig, String schedulerName, String loadAwareArgs,
            String quotaArgs, String settings, List<String> javaOptions, Path log, Duration timeout, BooleanSupplier ready) throws PartFailedException {
        int port = LoopbackPorts.pick();
        String url = "http://127.0.0.1:" + port;
        Path profile = work.resolve("k8s-scheduler-profile.yaml");
        Path config = work.resolve("k8s-scheduler.yml");
        try {
            String quotaPlugins = quotaArgs == null ? "" : """
                      plugins:
                        preFilter: {enabled: [{name: ElasticQuota}]}
                        postFilter: {enabled: [{name: ElasticQuota}]}
                        reserve: {enabled: [{name: ElasticQuota}]}
                    """;
            String quotaConfig = quotaArgs == null ? "" : """
                      - name: ElasticQuota
                        args: %s
                    """.formatted(quotaArgs);
            Files.writeString(profile, """
                    apiVersion: kubescheduler.config.k8s.io/v1
                    kind: KubeSchedulerConfiguration
                    profiles:
                    - schedulerName: %s
                    %s  pluginConfig:
                      - name: LoadAwareScheduling
                        args: %s
                    %s""".formatted(schedulerName, quotaPlugins, loadAwareArgs, quotaConfig));
            Files.writeString(config, """
                    schedulerName: %s
                    profileFile: %s
                    kubernetes: {kubeconfig: %s, startupTimeoutSeconds: 120}
                    status: {bindAddress: 127.0.0.1, port: %d}
                    """.formatted(schedulerName, profile, kubeconfig, port) + settings);
        } catch (IOException e) {
            throw new PartFailedException("k8s-scheduler", "cannot write its configuration: " + e.getMessage(), null);
        }
        LoopbackHttp http = new LoopbackHttp();
        ChildProcess process = ChildProcess.start("k8s-scheduler", home.resolve("bin/colocation"), List.of("k8s-scheduler",
                config.toString()), javaOptions, Map.of(), log, timeout,
                () -> http.get(url + "/readyz", Duration.ofSeconds(3)) != null && (ready == null || ready.getAsBoolean()));
        return new SchedulerProcess(process, url, http);
    }
}
