package io.colocation.charts.e2e;

import io.colocation.localclusters.kube.KubeApiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** kubectl as a user types it (the one beside the kube binaries, else the PATH's), against the suite's API server. */
final class Kubectl {
    private Kubectl() {
    }

    static String run(Path kubeconfig, String... args) throws IOException, InterruptedException {
        Path beside = KubeApiServer.locateBinaries().resolve("kubectl");
        List<String> command = new ArrayList<>(List.of(Files.isExecutable(beside) ? beside.toString() : "kubectl",
                "--kubeconfig=" + kubeconfig));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", args) + ": no answer within 5 minutes:\n" + out);
        }
        if (p.exitValue() != 0) {
            throw new IOException("kubectl " + String.join(" ", args) + " exited with " + p.exitValue() + ":\n" + out);
        }
        System.out.println("e2e: kubectl " + String.join(" ", args) + "\n" + out);
        return out;
    }
}
