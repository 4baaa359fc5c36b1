package io.colocation.scheduler.cli;

import io.colocation.api.InvalidInputException;
import io.colocation.helpers.time.ScaledClock;
import io.colocation.kube.client.KubernetesClients;
import io.colocation.model.document.KubeDocuments;
import io.colocation.runtime.StatusServer;
import io.colocation.runtime.YamlConfigLoader;
import io.colocation.scheduler.config.KubeSchedulerConfiguration;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.service.SchedulerService;
import io.colocation.scheduler.service.SchedulerSettings;
import io.colocation.scheduler.service.SchedulerStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code colocation k8s-scheduler CONFIG}: runs the scheduler until stopped. Start-up problems (configuration,
 * profile file, API server) are one line on stderr and exit status 2.
 */
public final class K8sSchedulerCommand {
    private static final Logger LOG = LoggerFactory.getLogger(K8sSchedulerCommand.class);

    private K8sSchedulerCommand() {
    }

    public static void main(String[] args) {
        if (args.length != 1 || args[0].equals("-h") || args[0].equals("--help")) {
            System.err.println("Usage: colocation k8s-scheduler CONFIG   (for example conf/k8s-scheduler.yml)\n"
                    + "       colocation k8s-scheduler explain --help");
            System.exit(args.length == 1 ? 0 : 2);
        }
        try {
            SchedulerSettings config = SchedulerSettings.load(Path.of(args[0]));
            KubernetesClient client = KubernetesClients.create(config.kubernetes.kubeconfig, config.kubernetes.masterUrl);
            SchedulerService service = new SchedulerService(config, handle -> profile(config, handle), client, identity(),
                    ScaledClock.fromSystemProperties());
            StatusServer status = SchedulerStatus.of(service);
            try {
                status.start(config.status.bindAddress, config.status.port);
            } catch (IOException e) {
                throw new IOException("status.port " + config.status.port + " on " + config.status.bindAddress
                        + " cannot be opened: " + e.getMessage(), e);
            }
            try {
                service.start();
            } catch (java.util.concurrent.TimeoutException e) {
                service.close();
                status.close();
                client.close();
                throw new IOException(e.getMessage(), e);
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                service.close();
                status.close();
                client.close();
                stopped.countDown();
            }, "k8s-scheduler-shutdown"));
            stopped.await();
        } catch (IOException | InvalidInputException | YamlConfigLoader.ConfigException e) {
            System.err.println("colocation k8s-scheduler: " + e.getMessage());
            System.exit(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            System.err.println("colocation k8s-scheduler: cannot start: " + (e.getMessage() == null ? e.toString()
                    : e.getMessage().lines().findFirst().orElse("")));
            System.exit(2);
        }
    }

    /** The profile named like the scheduler, from the profile file, else the default one; its plugins act through {@code handle}. */
    public static Profile profile(SchedulerSettings config, Handle handle) throws InvalidInputException {
        KubeSchedulerConfiguration.Result result;
        if (config.profileFile == null || config.profileFile.isBlank()) {
            result = KubeSchedulerConfiguration.defaults(handle);
        } else {
            List<KubeDocuments.Sourced> docs = KubeDocuments.read(config.profileFile, System.in);
            if (docs.size() != 1) {
                throw new InvalidInputException(config.profileFile + ": must hold one KubeSchedulerConfiguration");
            }
            result = KubeSchedulerConfiguration.parse(docs.get(0).object(), config.profileFile, handle);
        }
        result.notes().forEach(n -> LOG.warn("{}", n));
        for (Profile p : result.profiles()) {
            if (p.schedulerName().equals(config.schedulerName) || config.profileFile == null || config.profileFile.isBlank()) {
                return p.named(config.schedulerName);
            }
        }
        throw new InvalidInputException(config.profileFile + ": no profile for schedulerName " + config.schedulerName);
    }

    /** Who this replica is in the Lease: host name and a random suffix, as kube-scheduler's. */
    static String identity() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown";
        }
        return host + "_" + UUID.randomUUID();
    }
}
