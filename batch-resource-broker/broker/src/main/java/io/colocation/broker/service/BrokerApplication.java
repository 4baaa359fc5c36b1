package io.colocation.broker.service;

import com.codahale.metrics.Gauge;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.admission.AdmissionWebhook;
import io.colocation.broker.reconcile.BrokerReconciler;
import io.colocation.broker.reconcile.PassStats;
import io.colocation.broker.service.filters.BearerTokenFilter;
import io.colocation.broker.service.health.BrokerHealthChecks;
import io.colocation.broker.service.health.ProbeServlet;
import io.colocation.broker.service.metrics.LedgerCollector;
import io.colocation.broker.service.resources.ClusterResource;
import io.colocation.broker.service.resources.ConsoleResource;
import io.colocation.broker.service.resources.HealthResource;
import io.colocation.broker.service.resources.NodesResource;
import io.colocation.broker.service.resources.QuotasResource;
import io.colocation.broker.service.resources.WorkloadsResource;
import io.colocation.broker.service.tasks.DrainBatchTask;
import io.colocation.broker.service.tasks.NodeDrain;
import io.colocation.broker.service.tasks.ResyncTask;
import io.colocation.helpers.time.ScaledClock;
import io.colocation.kube.client.KubernetesClients;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.dropwizard.DropwizardExports;
import io.prometheus.client.servlet.jakarta.exporter.MetricsServlet;
import jakarta.servlet.DispatcherType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code colocation broker conf/broker.yml}: the broker as a Dropwizard service. Application port: the
 * REST API under {@code /api/v1}. Admin port: health checks ({@code /healthcheck}), Dropwizard metrics
 * ({@code /metrics}), Prometheus exposition ({@code /prometheus}) and the tasks {@code drain-batch} and
 * {@code resync}, and the Kubernetes probes {@code /livez} and {@code /readyz}. Mutating requests on both ports need the bearer token unless {@code auth.mode: none}.
 */
public class BrokerApplication extends Application<BrokerConfiguration> {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerApplication.class);
    private Broker broker;
    private volatile AdmissionWebhook webhook;
    private volatile org.eclipse.jetty.server.Server jetty;
    private final boolean verbose;

    public BrokerApplication() {
        this(false);
    }

    BrokerApplication(boolean verbose) {
        this.verbose = verbose;
    }

    /** {@code server CONFIG}; {@code --verbose} anywhere shows stack traces of start-up failures. */
    public static void main(String[] args) throws Exception {
        List<String> rest = new ArrayList<>(List.of(args));
        boolean verbose = rest.remove("--verbose");
        new BrokerApplication(verbose).run(rest.toArray(String[]::new));
    }

    @Override
    protected void addDefaultCommands(Bootstrap<BrokerConfiguration> bootstrap) {
        bootstrap.addCommand(new BrokerServerCommand(this, verbose));
        bootstrap.addCommand(new io.dropwizard.core.cli.CheckCommand<>(this));
    }

    @Override
    public String getName() {
        return "colocation-broker";
    }

    @Override
    public void initialize(Bootstrap<BrokerConfiguration> bootstrap) {
        // ${COLOCATION_BROKER_TOKEN} and friends in broker.yml; an unset variable without a default is an error.
        bootstrap.setConfigurationSourceProvider(new SubstitutingSourceProvider(bootstrap.getConfigurationSourceProvider(),
                new EnvironmentVariableSubstitutor(true)));
    }

    @Override
    public void run(BrokerConfiguration config, Environment environment) throws Exception {
        if (config.nodeAgent.restricted && !config.webhook.enabled) {
            throw new IllegalArgumentException("nodeAgent.restricted needs webhook.enabled: the webhook stamps the releases of each"
                    + " node's own koordlet, and without it every release would be ignored");
        }
        KubernetesClient kubernetes = KubernetesClients.create(config.kubernetes.kubeconfig, config.kubernetes.masterUrl);
        String token = null;
        if ("token".equals(config.auth.mode)) {
            try {
                token = BrokerToken.resolve(config.auth, kubernetes);
            } catch (InvalidInputException e) {
                kubernetes.close();
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        } else {
            LOG.warn("auth.mode is none: anyone who reaches the broker can drain nodes and force resyncs");
        }
        if (config.webhook.enabled) {
            // Every replica serves admission, leader or not, and before the broker's own start: it depends on nothing of it.
            try {
                webhook = AdmissionWebhooks.of(config, kubernetes, environment.metrics());
                webhook.start();
            } catch (RuntimeException e) {
                if (webhook != null) {
                    webhook.stop();
                }
                kubernetes.close();
                throw e;
            }
            AdmissionWebhook started = webhook;
            environment.lifecycle().manage(new io.dropwizard.lifecycle.Managed() {
                @Override
                public void stop() {
                    started.stop();
                }
            });
            environment.healthChecks().register("webhook", new com.codahale.metrics.health.HealthCheck() {
                @Override
                protected Result check() {
                    return started.healthy() ? Result.healthy("serving on port " + started.port())
                            : Result.unhealthy("not watching ClusterColocationProfiles, Namespaces and PriorityClasses");
                }
            });
        }
        // The decisions' clock: the wall clock, or a simulation's scaled clock (colocation simulate).
        broker = new Broker(config, kubernetes, ScaledClock.fromSystemProperties());
        // Started here, before the HTTP server: a failure is one clear line from the server command, not a
        // Jetty start-up stack trace; stopped with the server.
        try {
            broker.start();
        } catch (Exception e) {
            broker.stop();
            if (webhook != null) {
                webhook.stop();
            }
            kubernetes.close();
            throw e;
        }
        environment.lifecycle().manage(new io.dropwizard.lifecycle.Managed() {
            @Override
            public void stop() {
                broker.stop();
            }
        });
        environment.lifecycle().addServerLifecycleListener(server -> jetty = server);
        environment.lifecycle().manage(new io.dropwizard.lifecycle.Managed() {
            @Override
            public void stop() {
                kubernetes.close();
            }
        });

        // Resources and tasks get what they use, not the whole broker.
        NodeDrain drain = new NodeDrain(kubernetes, broker::wake);
        environment.jersey().register(new NodesResource(broker.ledger(), broker.leadership(), drain, broker::resync, broker.clock()));
        environment.jersey().register(new ClusterResource(broker.ledger(), broker.leadership(), broker.replicaId(), broker.policy()));
        environment.jersey().register(new WorkloadsResource(broker.view()::pods, broker.yarnSides()));
        environment.jersey().register(new QuotasResource(kubernetes));
        environment.jersey().register(new HealthResource(environment.healthChecks()));
        environment.jersey().register(new ConsoleResource());
        environment.admin().addServlet("drain-batch", new DrainBatchTask(drain)).addMapping("/tasks/drain-batch");
        environment.admin().addTask(new ResyncTask(broker::resync));
        if (token != null) {
            environment.servlets().addFilter("bearer-token", BearerTokenFilter.forApi(token))
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/api/*");
            environment.admin().addFilter("bearer-token", BearerTokenFilter.forAdmin(token))
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        }
        BrokerHealthChecks.register(environment.healthChecks(), BrokerHealthChecks.Parts.of(broker),
                config.yarn.clusters.stream().map(c -> c.id).toList());

        PassStats stats = broker.reconciler().stats();
        environment.admin().addServlet("livez", ProbeServlet.liveness(stats, broker.stallLimit())).addMapping("/livez");
        environment.admin().addServlet("readyz", ProbeServlet.readiness(environment.healthChecks())).addMapping("/readyz");
        environment.metrics().register("colocation.passes", (Gauge<Long>) () -> stats.passes.get());
        environment.metrics().register("colocation.last-pass-millis", (Gauge<Long>) () -> stats.lastPassMillis);
        environment.metrics().register("colocation.overcommit", (Gauge<Long>) () -> stats.overcommits.get());
        environment.metrics().register("colocation.excess", (Gauge<Long>) () -> stats.excesses.get());
        CollectorRegistry prometheus = new CollectorRegistry();
        prometheus.register(new DropwizardExports(environment.metrics()));
        prometheus.register(new LedgerCollector(broker.ledger(), stats, broker.leadership()));
        environment.admin().addServlet("prometheus", new MetricsServlet(prometheus)).addMapping("/prometheus");
    }

    /** The HTTP ports (application, then admin), once started. */
    public java.util.List<Integer> ports() {
        java.util.List<Integer> ports = new java.util.ArrayList<>();
        for (org.eclipse.jetty.server.Connector c : jetty.getConnectors()) {
            ports.add(((org.eclipse.jetty.server.ServerConnector) c).getLocalPort());
        }
        return ports;
    }

    /** Stops the HTTP server and, through it, the broker (for embedding: the sandbox, tests). */
    public void stop() throws Exception {
        if (jetty != null) {
            jetty.stop();
        }
    }

    /** The admission webhook, when {@code webhook.enabled} (after {@code run}), for embedding. */
    public java.util.Optional<AdmissionWebhook> webhook() {
        return java.util.Optional.ofNullable(webhook);
    }

    /** The running broker (after {@code run}), for embedding. */
    public Broker broker() {
        return broker;
    }
}
