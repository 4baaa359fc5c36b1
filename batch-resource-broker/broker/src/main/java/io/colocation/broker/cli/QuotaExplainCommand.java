package io.colocation.broker.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.quota.QuotaExplained;
import io.colocation.model.document.ExplainArguments;
import io.colocation.model.document.KubeDocuments;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code colocation quota explain}: a tree over Batch from the documents a user saves (docs/quota.md). Exit 0 printed,
 * 1 bad input, 2 usage.
 */
public final class QuotaExplainCommand {
    static final String COMMAND = "colocation quota explain";
    static final String USAGE = """
            Usage: colocation quota explain -f PATH [-f PATH ...] [-o text|json]

            Shows a quota tree over Batch as the broker computes it: every quota's min, request, runtime and used,
            Kubernetes quotas from their pods and YARN leaf queues from the ResourceManager's report, and the
            CapacityScheduler settings each YARN leaf queue follows (capacity and maximum-capacity, absolute).

              -f, --filename PATH   ElasticQuota and Pod documents (YAML or JSON, multi-document, kind: List: kubectl get
                                    elasticquotas,pods -A -o yaml) and the ResourceManager's scheduler report (the JSON
                                    of curl http://RM:8088/ws/v1/cluster/scheduler), or - for standard input; repeat for
                                    several. A tree is an ElasticQuota with labels quota.scheduling.koordinator.sh/is-root
                                    "true" and .../tree-id, and the quotas with that tree-id; a YARN leaf names its queue in
                                    annotation colocation.io/yarn-queue.
              -o, --output FORMAT   text (default) or json
            """;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private QuotaExplainCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Runs the command; returns the exit code. */
    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        ExplainArguments.Outcome parsed = ExplainArguments.read(args, Instant.EPOCH, List.of(), COMMAND, USAGE, out, err);
        if (parsed.arguments() == null) {
            return parsed.exitCode();
        }
        ExplainArguments a = parsed.arguments();
        try {
            List<KubeDocuments.Sourced> docs = new ArrayList<>();
            for (String f : a.files()) {
                docs.addAll(KubeDocuments.read(f, stdin));
            }
            QuotaExplained result = QuotaExplained.of(docs);
            if (a.format().equals("json")) {
                out.println(JSON.writeValueAsString(result.json()));
            } else {
                result.text(out);
            }
            return 0;
        } catch (InvalidInputException e) {
            err.println(COMMAND + ": " + e.getMessage());
            return 1;
        } catch (JsonProcessingException e) {
            err.println(COMMAND + ": cannot write the result: " + e.getOriginalMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println(COMMAND + ": " + ExplainArguments.unforeseen(e));
            return 1;
        }
    }
}
