package io.colocation.harness;

import io.colocation.localclusters.LoopbackPorts;
import io.colocation.localclusters.process.ChildProcess;
import io.colocation.localclusters.process.PartFailedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The broker as an install runs it: {@code bin/colocation broker conf/broker.yml} of the distribution, its own process,
 * its API and admin ports on loopback, a token of its own for the console's tasks, and whatever the caller sets beyond
 * the shipped file ({@code -Ddw.…} options). Started once its API answers.
 */
public final class BrokerProcess extends LoopbackPart {
    private final String token;

    private BrokerProcess(ChildProcess process, String url, String token, LoopbackHttp http) {
        super(process, url, http);
        this.token = token;
    }

    /**
     * @param options  {@code -Ddw.…} settings beyond {@code conf/broker.yml} and JVM options
     * @param heapMb   its {@code -Xmx}
     */
    public static BrokerProcess start(Path home, Path kubeconfig, String zkConnect, String policy, List<String> options, int heapMb,
            Path log, Duration timeout) throws PartFailedException {
        int port = LoopbackPorts.pick();
        String url = "http://127.0.0.1:" + port;
        String token = UUID.randomUUID().toString();
        LoopbackHttp http = new LoopbackHttp();
        List<String> opts = new ArrayList<>(List.of("-Ddw.kubernetes.kubeconfig=" + kubeconfig, "-Ddw.zookeeper.connect=" + zkConnect,
                "-Ddw.arbitration.policy=" + policy, "-Ddw.server.applicationConnectors[0].bindHost=127.0.0.1",
                "-Ddw.server.applicationConnectors[0].port=" + port, "-Ddw.server.adminConnectors[0].bindHost=127.0.0.1",
                "-Ddw.server.adminConnectors[0].port=" + LoopbackPorts.pick(), "-Xmx" + heapMb + "m"));
        opts.addAll(options);
        ChildProcess process = ChildProcess.start("broker", home.resolve("bin/colocation"), List.of("broker",
                home.resolve("conf/broker.yml").toString()), opts, Map.of("COLOCATION_BROKER_TOKEN", token), log, timeout,
                () -> http.get(url + "/api/v1/nodes", Duration.ofSeconds(3)) != null);
        return new BrokerProcess(process, url, token, http);
    }

    /** The token its console's tasks ask for. */
    public String token() {
        return token;
    }
}
