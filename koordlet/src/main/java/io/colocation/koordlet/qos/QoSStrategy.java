package io.colocation.koordlet.qos;

/**
 * One QoS strategy of the koordlet (Koordinator's {@code QOSStrategy}): a pure decision from a round's
 * {@link NodeSnapshot}; the QoS manager carries it out and {@code explain} prints it. Registered in {@link QoSStrategies}.
 *
 * @param <D> the strategy's decision
 */
public interface QoSStrategy<D> {
    /** Koordinator's name of the strategy ({@code CPUSuppress}, {@code MemoryEvict}, ...). */
    String name();

    D decide(NodeSnapshot snapshot, QoSContext context);
}
