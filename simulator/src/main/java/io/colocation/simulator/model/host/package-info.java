/**
 * Model: a host's kernel sharing CPU and memory among online pods, the system and batch tasks, as the cgroups the
 * koordlet wrote would share them; the step that drives every host.
 */
package io.colocation.simulator.model.host;
