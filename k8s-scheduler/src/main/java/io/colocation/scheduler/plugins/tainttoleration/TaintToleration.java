package io.colocation.scheduler.plugins.tainttoleration;

import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.FilterPlugin;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Status;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;

/** kube-scheduler's {@code TaintToleration} filter: every NoSchedule and NoExecute taint must be tolerated. */
public final class TaintToleration implements FilterPlugin {
    public static final String NAME = "TaintToleration";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        List<Taint> taints = node.taints();
        if (taints.isEmpty()) {
            return Status.SUCCESS;
        }
        List<Toleration> tolerations = pod.pod().getSpec().getTolerations() == null ? List.of()
                : pod.pod().getSpec().getTolerations();
        for (Taint t : taints) {
            if (!"NoSchedule".equals(t.getEffect()) && !"NoExecute".equals(t.getEffect())) {
                continue;
            }
            if (tolerations.stream().noneMatch(tol -> tolerates(tol, t))) {
                return Status.unschedulable("node(s) had untolerated taint {" + t.getKey()
                        + (t.getValue() == null || t.getValue().isEmpty() ? "" : ": " + t.getValue()) + "}");
            }
        }
        return Status.SUCCESS;
    }

    static boolean tolerates(Toleration tol, Taint taint) {
        if (tol.getEffect() != null && !tol.getEffect().isEmpty() && !tol.getEffect().equals(taint.getEffect())) {
            return false;
        }
        String key = tol.getKey() == null ? "" : tol.getKey();
        String op = tol.getOperator() == null || tol.getOperator().isEmpty() ? "Equal" : tol.getOperator();
        if (key.isEmpty()) {
            return op.equals("Exists"); // an empty key with Exists tolerates everything
        }
        if (!key.equals(taint.getKey())) {
            return false;
        }
        if (op.equals("Exists")) {
            return true;
        }
        String value = tol.getValue() == null ? "" : tol.getValue();
        return op.equals("Equal") && value.equals(taint.getValue() == null ? "" : taint.getValue());
    }
}
