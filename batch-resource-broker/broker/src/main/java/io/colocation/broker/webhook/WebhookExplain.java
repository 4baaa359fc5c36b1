package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import java.io.InputStream;
import java.util.List;

/** The dry run behind {@code colocation webhook explain}: the input read as the whole cluster, then the webhook's mutation. */
public final class WebhookExplain {
    /** The mutated pod and the notes for stderr. */
    public record Outcome(ObjectNode pod, List<String> notes) {
    }

    private WebhookExplain() {
    }

    public static Outcome run(List<String> files, InputStream stdin, String namespace, PodMutation.Gates gates,
            PodMutation.Draws draws) throws InvalidInputException, PodMutation.Denied {
        ExplainInput input = ExplainInput.read(files, stdin);
        PodMutation.Result result = PodMutation.mutate(input.pod(), namespace, input, gates, draws);
        return new Outcome(result.pod(), result.notes());
    }
}
