/**
 * A real ResourceManager (its CapacityScheduler and the colocation plugin) driven as Hadoop's Scheduler Load Simulator
 * drives one: modelled NodeManagers heartbeat through its ResourceTrackerService and modelled ApplicationMasters
 * allocate through its ApplicationMasterService.
 */
package io.colocation.simulator.real.yarn;
