package io.colocation.simulator.real.yarn;

import io.colocation.simulator.measure.YarnCounters;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.workload.WorkloadModel.YarnApplication;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewApplicationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.SubmitApplicationRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.util.Records;

/**
 * One YARN application's ApplicationMaster, simulated as Hadoop's Scheduler Load Simulator simulates it: submitted
 * through the ClientRMService, launched by the RM on a node (its container runs on that simulated host), registered
 * and heartbeating through the ApplicationMasterService in process, with the AMRMToken the RM made for it. It asks for
 * a container per pending task (all of one size, as MapReduce's maps), starts each task on the container's NodeManager,
 * runs a task again when its container ends other than with success (PREEMPTED is counted apart, as YARN's AMs do not
 * count it as a task failure) and finishes once every task succeeded. It makes the attempts
 * {@link YarnApplication#MAX_ATTEMPTS} allows: a new attempt keeps the tasks that succeeded and asks again for those the
 * RM killed with the last one, as MapReduce's recovery does; an application the RM failed stops.
 */
final class ApplicationSimulator {
    static final String USER = "simulated";
    static final int TASK_PRIORITY = 20;

    private enum State { NEW, SUBMITTED, LAUNCHED, RUNNING, FINISHED }

    private final SimulatedYarn yarn;
    private final ResourceManager rm;
    private final String queue;
    private final Resource amResource;
    private final Deque<YarnTask> pending = new ArrayDeque<>();
    private final Map<ContainerId, YarnTask> running = new HashMap<>();
    private final List<ContainerId> toRelease = new ArrayList<>();
    private final int tasks;
    private final YarnCounters counters;
    private State state = State.NEW;
    private ApplicationId appId;
    private ApplicationAttemptId attemptId;
    private Container master;
    private UserGroupInformation ugi;
    private int responseId;
    private int done;

    ApplicationSimulator(SimulatedYarn yarn, ResourceManager rm, String queue, Resource amResource, List<YarnTask> specs,
            YarnCounters counters, long nowMillis) {
        this.yarn = yarn;
        this.rm = rm;
        this.queue = queue;
        this.amResource = amResource;
        this.counters = counters;
        this.tasks = specs.size();
        for (YarnTask t : specs) {
            t.askedAtMillis = nowMillis;
            pending.add(t);
        }
    }

    synchronized ApplicationId submit() throws Exception {
        appId = rm.getClientRMService().getNewApplication(Records.newRecord(GetNewApplicationRequest.class)).getApplicationId();
        ApplicationSubmissionContext ctx = Records.newRecord(ApplicationSubmissionContext.class);
        ctx.setApplicationId(appId);
        ctx.setApplicationName("simulated-batch");
        ctx.setApplicationType("MAPREDUCE");
        ctx.setMaxAppAttempts(YarnApplication.MAX_ATTEMPTS);
        ctx.setQueue(queue);
        ctx.setPriority(Priority.newInstance(0));
        ContainerLaunchContext launch = Records.newRecord(ContainerLaunchContext.class);
        launch.setCommands(new ArrayList<>());
        launch.setEnvironment(new HashMap<>());
        launch.setLocalResources(new HashMap<>());
        launch.setServiceData(new HashMap<>());
        launch.setApplicationACLs(new HashMap<>());
        ctx.setAMContainerSpec(launch);
        ctx.setResource(amResource);
        SubmitApplicationRequest req = Records.newRecord(SubmitApplicationRequest.class);
        req.setApplicationSubmissionContext(ctx);
        UserGroupInformation.createRemoteUser(USER).doAs((PrivilegedExceptionAction<Object>) () -> rm.getClientRMService()
                .submitApplication(req));
        state = State.SUBMITTED;
        counters.applicationSubmitted(tasks);
        return appId;
    }

    /** The RM launched this application's master container (its token is set); it registers on its next heartbeat. */
    synchronized void launched(Container masterContainer, Token<AMRMTokenIdentifier> token, long nowMillis) throws Exception {
        ApplicationAttemptId attempt = masterContainer.getId().getApplicationAttemptId();
        if (attemptId != null && !attempt.equals(attemptId)) {
            // the RM killed the last attempt's containers (containers are not kept across attempts): their tasks ask again
            for (YarnTask t : running.values()) {
                t.askedAtMillis = nowMillis;
                pending.addFirst(t);
            }
            running.clear();
            toRelease.clear();
            responseId = 0;
        }
        master = masterContainer;
        attemptId = attempt;
        ugi = UserGroupInformation.createRemoteUser(attemptId.toString());
        ugi.addTokenIdentifier(token.decodeIdentifier());
        state = State.LAUNCHED;
    }

    synchronized boolean finished() {
        return state == State.FINISHED;
    }

    /** The vcores of the pending tasks. */
    synchronized int pendingVcores() {
        int n = 0;
        if (state != State.FINISHED) {
            for (YarnTask t : pending) {
                n += t.vcores;
            }
        }
        return n;
    }

    /** Pending tasks (not given a container yet). */
    synchronized int pendingTasks() {
        return state == State.FINISHED ? 0 : pending.size();
    }

    /** One heartbeat: register once launched, then ask, take what was allocated, learn what completed, finish when done. */
    synchronized void heartbeat(long nowMillis) throws Exception {
        if (state != State.LAUNCHED && state != State.RUNNING || !current()) {
            return;
        }
        if (state == State.LAUNCHED) {
            RegisterApplicationMasterRequest reg = Records.newRecord(RegisterApplicationMasterRequest.class);
            reg.setHost("localhost");
            reg.setRpcPort(0);
            reg.setTrackingUrl("");
            ugi.doAs((PrivilegedExceptionAction<Object>) () -> rm.getApplicationMasterService().registerApplicationMaster(reg));
            state = State.RUNNING;
        }
        List<ResourceRequest> ask = new ArrayList<>();
        if (!pending.isEmpty()) {
            YarnTask t = pending.peek();
            ask.add(ResourceRequest.newInstance(Priority.newInstance(TASK_PRIORITY), ResourceRequest.ANY,
                    Resource.newInstance(t.memoryMb, t.vcores), pending.size()));
        } else {
            YarnTask any = running.isEmpty() ? null : running.values().iterator().next();
            if (any != null) {
                ask.add(ResourceRequest.newInstance(Priority.newInstance(TASK_PRIORITY), ResourceRequest.ANY,
                        Resource.newInstance(any.memoryMb, any.vcores), 0));
            }
        }
        // The response id is the RM's, taken from its last answer as AMRMClient does: a call that failed is sent again with
        // the same id (counting it up on every call put a failed AM out of step with the RM for good).
        AllocateRequest req = AllocateRequest.newInstance(responseId, done / (float) Math.max(tasks, 1), ask,
                new ArrayList<>(toRelease), null);
        AllocateResponse resp = ugi.doAs((PrivilegedExceptionAction<AllocateResponse>) () -> rm.getApplicationMasterService()
                .allocate(req));
        responseId = resp.getResponseId();
        toRelease.clear();
        for (Container c : resp.getAllocatedContainers()) {
            YarnTask t = pending.poll();
            if (t == null) {
                toRelease.add(c.getId());
                continue;
            }
            running.put(c.getId(), t);
            counters.queued(Math.max(0, nowMillis - t.askedAtMillis));
            BatchTask task = new BatchTask(c.getId().toString(), BatchTask.Side.YARN, c.getId().toString(), t.vcores * 1000L,
                    t.memoryMb << 20, t.vcores * t.cpuUse, t.memoryUse, t.workCoreSeconds, false, TASK_PRIORITY, nowMillis);
            yarn.launch(c, task);
        }
        for (ContainerStatus s : resp.getCompletedContainersStatuses()) {
            YarnTask t = running.remove(s.getContainerId());
            if (t == null) {
                continue;
            }
            if (s.getExitStatus() == ContainerExitStatus.SUCCESS) {
                done++;
                counters.taskCompleted();
                continue;
            }
            if (s.getExitStatus() == ContainerExitStatus.PREEMPTED) {
                counters.taskPreempted();
            } else if (s.getExitStatus() != NodeManagerSimulator.KILLED_EXIT_STATUS) {
                counters.taskFailed();
            }
            t.askedAtMillis = nowMillis;
            pending.addFirst(t);
        }
        if (done >= tasks) {
            FinishApplicationMasterRequest fin = FinishApplicationMasterRequest.newInstance(FinalApplicationStatus.SUCCEEDED, "",
                    "");
            ugi.doAs((PrivilegedExceptionAction<Object>) () -> rm.getApplicationMasterService().finishApplicationMaster(fin));
            state = State.FINISHED;
            counters.applicationFinished();
            // the ApplicationMaster's process exits: its NodeManager reports the container complete
            yarn.masterExited(master);
        }
    }

    /**
     * Whether this attempt is still the application's: false while the RM starts the next one after a failed master, and
     * once the RM failed the application (then it is over, counted as failed).
     */
    private boolean current() {
        RMApp app = rm.getRMContext().getRMApps().get(appId);
        if (app == null || app.getState() == RMAppState.FAILED || app.getState() == RMAppState.KILLED) {
            state = State.FINISHED;
            counters.applicationFailed();
            return false;
        }
        RMAppAttempt attempt = app.getCurrentAppAttempt();
        return attempt != null && attempt.getAppAttemptId().equals(attemptId)
                && (attempt.getAppAttemptState() == RMAppAttemptState.LAUNCHED || attempt.getAppAttemptState() == RMAppAttemptState.RUNNING);
    }

    synchronized ApplicationId id() {
        return appId;
    }

    synchronized Container master() {
        return master;
    }
}
