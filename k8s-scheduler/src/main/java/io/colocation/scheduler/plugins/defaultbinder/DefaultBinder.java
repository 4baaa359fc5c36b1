package io.colocation.scheduler.plugins.defaultbinder;

import io.colocation.scheduler.framework.BindPlugin;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Status;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** kube-scheduler's DefaultBinder: the {@code pods/binding} subresource, at the scheduler's client write rate. */
public final class DefaultBinder implements BindPlugin {
    public static final String NAME = "DefaultBinder";

    private final Handle handle;

    public DefaultBinder(Handle handle) {
        this.handle = handle;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status bind(CycleState state, PodInfo info, String node) {
        if (!handle.writeToken()) {
            return Status.unschedulable("interrupted before binding");
        }
        Pod pod = info.pod();
        try {
            handle.client().bindings().inNamespace(pod.getMetadata().getNamespace()).resource(new BindingBuilder()
                    .withNewMetadata().withName(pod.getMetadata().getName()).withNamespace(pod.getMetadata().getNamespace())
                    .withUid(pod.getMetadata().getUid()).endMetadata()
                    .withTarget(new ObjectReferenceBuilder().withKind("Node").withApiVersion("v1").withName(node).build()).build())
                    .create();
            return Status.SUCCESS;
        } catch (KubernetesClientException e) {
            return Status.unschedulable("binding to " + node + " failed: " + e.getCode() + " " + e.getMessage());
        }
    }
}
