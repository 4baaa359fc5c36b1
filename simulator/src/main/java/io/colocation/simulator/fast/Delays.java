package io.colocation.simulator.fast;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The real system's delays the fast engine runs with, in simulated seconds, stated in the report. The koordlet's step is
 * the real engine's ({@code Simulation.STEP_SECONDS}); its NodeMetric report interval is the NodeMetric spec's, as the
 * broker renders it from the colocation config; the others are what the parts do on a real cluster: the broker's sync
 * interval, a NodeManager heartbeat, the plugin's update reaching the scheduler, the scheduler's queue.
 *
 * @param koordletStep        every host's koordlet collects and runs its QoS round this often
 * @param brokerPass          the broker's pass (its sync interval; the real one also wakes on changes)
 * @param schedulerCycle      the k8s-scheduler tries its pending pods this often
 * @param nodeManagerHeartbeat YARN allocates on a NodeManager's heartbeat
 * @param applicationMasterHeartbeat an ApplicationMaster registers, asks for its pending tasks and starts the containers
 *                            it was given on its heartbeat (MapReduce's {@code yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms})
 * @param pluginApply         from a YARN grant the broker published to the scheduler applying it
 * @param unschedulableFlush  a pod no node could take is tried again after this long even without a change
 * @param yarnReportMinInterval the plugin reports a node's changed allocation to the broker at most this often
 * @param yarnReportRefresh   and an unchanged one this often (the real engine's plugin settings, SimulatedYarnConfiguration)
 */
public record Delays(double koordletStep, double brokerPass, double schedulerCycle, double nodeManagerHeartbeat,
        double applicationMasterHeartbeat, double pluginApply, double unschedulableFlush, double yarnReportMinInterval, double yarnReportRefresh) {
    /** The delays {@code --delays} may set, by name. */
    static final java.util.List<String> NAMES = java.util.List.of("brokerPass", "schedulerCycle", "nodeManagerHeartbeat",
            "applicationMasterHeartbeat", "pluginApply", "unschedulableFlush", "yarnReportMinInterval", "yarnReportRefresh");

    public static Delays defaults(int koordletStepSeconds) {
        return new Delays(koordletStepSeconds, 10, 1, 1, 1, 1, 60, 10, 300);
    }

    /** Wrong {@code --delays}, said in one line. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    /** {@code NAME=SECONDS[,NAME=SECONDS...]} laid over these delays; each 0.1 to 3600 simulated seconds. */
    public Delays with(String spec) throws Invalid {
        double[] v = {brokerPass, schedulerCycle, nodeManagerHeartbeat, applicationMasterHeartbeat, pluginApply, unschedulableFlush,
            yarnReportMinInterval, yarnReportRefresh};
        for (String part : spec.split(",")) {
            int eq = part.indexOf('=');
            String name = eq < 0 ? part.trim() : part.substring(0, eq).trim();
            int at = NAMES.indexOf(name);
            if (eq < 0 || at < 0) {
                throw new Invalid("--delays: '" + part.trim() + "' is not NAME=SECONDS with NAME one of " + NAMES);
            }
            String value = part.substring(eq + 1).trim();
            double seconds;
            try {
                seconds = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new Invalid("--delays: " + name + " must be a number of seconds, not '" + value + "'");
            }
            if (!(seconds >= 0.1 && seconds <= 3600)) {
                throw new Invalid("--delays: " + name + " must be 0.1 to 3600 seconds, not " + value);
            }
            v[at] = seconds;
        }
        return new Delays(koordletStep, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    }

    /** Containers a NodeManager heartbeat may bring its node: one a simulated second, as the real engine's RM assigns. */
    int containersPerHeartbeat() {
        return (int) Math.max(1, Math.round(nodeManagerHeartbeat));
    }

    Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("koordletStepSeconds", koordletStep);
        m.put("nodeMetricReport", "every reportIntervalSeconds of the NodeMetric spec (the colocation config's metricReportIntervalSeconds)");
        m.put("brokerPassSeconds", brokerPass);
        m.put("schedulerCycleSeconds", schedulerCycle);
        m.put("nodeManagerHeartbeatSeconds", nodeManagerHeartbeat);
        m.put("containersPerHeartbeat", containersPerHeartbeat());
        m.put("applicationMasterHeartbeatSeconds", applicationMasterHeartbeat);
        m.put("pluginApplySeconds", pluginApply);
        m.put("unschedulableFlushSeconds", unschedulableFlush);
        m.put("yarnReportMinIntervalSeconds", yarnReportMinInterval);
        m.put("yarnReportRefreshSeconds", yarnReportRefresh);
        return m;
    }

    static long millis(double seconds) {
        return Math.round(seconds * 1000);
    }
}
