/** {@code colocation simulate --sweep}: one run per value of a threshold, and the frontier of cluster CPU against disruption. */
package io.colocation.simulator.sweep;
