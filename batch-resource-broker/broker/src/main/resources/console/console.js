// The broker's console: plain JavaScript, no packages, works offline. Polls this broker's API every 2 s.
(function () {
  'use strict';
  var history = [];            // cluster totals over time, for the chart
  var MAX_POINTS = 300;        // 10 minutes at 2 s
  var seen = {};               // publication keys already listed as events
  var lastLeader = null;
  var events = [];

  function cores(r) { return r ? r.cpuMilli / 1000 : 0; }
  // The API writes instants as epoch seconds (a number) or as ISO text: both become milliseconds.
  function millis(t) { return typeof t === 'number' ? t * 1000 : Date.parse(t); }
  function stamp(ms) { return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'); }
  function fmt(x) { return (Math.round(x * 10) / 10).toFixed(1); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function get(path) {
    return fetch(path, { cache: 'no-store' }).then(function (r) {
      if (!r.ok) { throw new Error(path + ': HTTP ' + r.status); }
      return r.json();
    });
  }
  function addEvent(time, text) {
    events.unshift({ time: time, text: text });
    events = events.slice(0, 100);
  }

  function renderTotals(t) {
    var leader = document.getElementById('leader');
    leader.textContent = 'leader: ' + (t.leader || 'none') + (t.epoch != null ? ' (epoch ' + t.epoch + ')' : '') +
      ' · this replica: ' + t.replica + ' · policy ' + t.policy;
    if (lastLeader !== null && lastLeader !== t.leader) {
      addEvent(Date.now(), 'failover: leader ' + lastLeader + ' → ' + (t.leader || 'none'));
    }
    lastLeader = t.leader;
    var box = document.getElementById('totals');
    box.textContent = '';
    [['nodes', t.nodes + (t.drainedNodes ? ' (' + t.drainedNodes + ' drained)' : '') +
        (t.degradedNodes ? ' (' + t.degradedNodes + ' degraded)' : '')],
     ['capacity', fmt(cores(t.capacity)) + ' cores'], ['online usage', fmt(cores(t.onlineUsage)) + ' cores'],
     ['Batch origin', fmt(cores(t.origin)) + ' cores'],
     ['Kubernetes used / granted', fmt(cores(t.kubernetes.used)) + ' / ' + fmt(cores(t.kubernetes.granted))],
     ['YARN used / granted', fmt(cores(t.yarn.used)) + ' / ' + fmt(cores(t.yarn.granted))],
     ['excess', fmt(cores(t.excess)) + ' cores']].forEach(function (p) {
      var d = el('div'); d.appendChild(el('b', {}, p[1])); d.appendChild(document.createTextNode(p[0])); box.appendChild(d);
    });
    history.push({ capacity: cores(t.capacity), online: cores(t.onlineUsage), origin: cores(t.origin),
      k8s: cores(t.kubernetes.used), yarn: cores(t.yarn.used) });
    if (history.length > MAX_POINTS) { history.shift(); }
    drawChart();
  }

  function drawChart() {
    var c = document.getElementById('chart');
    var g = c.getContext('2d');
    g.clearRect(0, 0, c.width, c.height);
    var max = Math.max.apply(null, history.map(function (h) { return h.capacity; }).concat([1]));
    var series = [['capacity', '#999'], ['online', '#d9822b'], ['origin', '#3b73b9'], ['k8s', '#2f9e5b'], ['yarn', '#8e44ad']];
    g.fillStyle = '#777'; g.font = '11px sans-serif'; g.fillText(fmt(max) + ' cores', 4, 12);
    series.forEach(function (s) {
      g.strokeStyle = s[1]; g.lineWidth = 2; g.beginPath();
      history.forEach(function (h, i) {
        var x = history.length < 2 ? 0 : i * (c.width - 1) / (history.length - 1);
        var y = c.height - 4 - (h[s[0]] / max) * (c.height - 20);
        if (i === 0) { g.moveTo(x, y); } else { g.lineTo(x, y); }
      });
      g.stroke();
    });
  }

  function bar(n) {
    var cap = cores(n.capacity) || 1;
    var online = Math.max(0, cores(n.nodeUsage) - cores(n.kubernetesUsed) - cores(n.yarnUsed));
    var parts = [['online', online], ['k8s', cores(n.kubernetesUsed)], ['yarn', cores(n.yarnUsed)], ['free', cores(n.free)]];
    var b = el('div', { 'class': 'bar', title: parts.map(function (p) { return p[0] + ' ' + fmt(p[1]); }).join(', ') });
    parts.forEach(function (p) {
      // width through the style object, not a style attribute: the page's Content-Security-Policy allows no inline style
      var seg = el('span', { 'class': p[0] });
      seg.style.width = Math.max(0, Math.min(100, p[1] * 100 / cap)) + '%';
      b.appendChild(seg);
    });
    return b;
  }

  function drainButton(n) {
    var b = el('button', {}, n.drained ? 'undrain' : 'drain');
    b.addEventListener('click', function () {
      var token = document.getElementById('token').value;
      fetch('api/v1/nodes/' + encodeURIComponent(n.node) + '/drain', {
        method: n.drained ? 'DELETE' : 'POST', headers: token ? { Authorization: 'Bearer ' + token } : {}
      }).then(function (r) {
        addEvent(Date.now(), (n.drained ? 'undrain ' : 'drain ') + n.node + ': ' +
          (r.ok ? 'done' : 'refused (HTTP ' + r.status + (r.status === 401 ? ', give the broker token' : '') + ')'));
        refresh();
      });
    });
    return b;
  }

  // One page of the nodes the filters keep: a console at 1,000s of nodes renders and fetches 50 rows, not all.
  var PAGE = 50;
  var page = { offset: 0, filter: '', state: '' };

  function nodesPath() {
    return 'api/v1/nodes?limit=' + PAGE + '&offset=' + page.offset + (page.filter ? '&filter=' + encodeURIComponent(page.filter) : '') +
      (page.state ? '&state=' + page.state : '');
  }

  function renderPager(r) {
    var shown = r.items.length;
    document.getElementById('page-info').textContent = shown === 0 ? 'no node' + (page.filter || page.state ? ' matches' : '')
      : 'nodes ' + (page.offset + 1) + '–' + (page.offset + shown) + ' of ' + r.total;
    document.getElementById('prev').disabled = page.offset === 0;
    document.getElementById('next').disabled = page.offset + shown >= r.total;
  }

  function renderNodes(nodes, now) {
    var body = document.querySelector('#nodes tbody');
    body.textContent = '';
    nodes.forEach(function (n) {
      var tr = el('tr', { 'data-node': n.node });
      tr.appendChild(el('td', {}, n.node));
      var cpu = el('td'); cpu.appendChild(bar(n)); tr.appendChild(cpu);
      tr.appendChild(el('td', {}, fmt(cores(n.kubernetesGrant)) + ' (used ' + fmt(cores(n.kubernetesUsed)) + ')'));
      tr.appendChild(el('td', {}, fmt(cores(n.yarnGrant)) + ' (used ' + fmt(cores(n.yarnUsed)) + ')' +
        (n.yarn && !n.yarn.acknowledged ? ' · not acknowledged' : '')));
      // degraded: the calculation found the node's inputs stale or unusable (a NodeMetric too old, ...)
      var state = n.drained ? 'drained' : n.degraded ? 'degraded' : 'ok';
      // what else needs attention, named as `colocation status` names it
      var notes = [];
      if (n.yarn && !n.yarn.reachable) { notes.push('YARN unreachable'); }
      if (n.excess && n.excess.cpuMilli > 0) { notes.push('use beyond origin by ' + fmt(cores(n.excess))); }
      // the ledger's times are on the broker's clock (a simulation's runs ahead of the wall): age against its now
      var age = n.computedAt != null ? Math.max(0, Math.round((now - millis(n.computedAt)) / 1000)) : null;
      tr.appendChild(el('td', { 'class': 'state-' + state, title: n.degradedReason || '' },
        state + (n.degradedReason ? ': ' + n.degradedReason : '') + (notes.length ? ' · ' + notes.join(' · ') : '')
        + (age !== null ? ' · computed ' + age + ' s ago' : '')));
      var act = el('td'); act.appendChild(drainButton(n)); tr.appendChild(act);
      body.appendChild(tr);
      [['Kubernetes', n.lastKubernetesPublication], ['YARN', n.lastYarnPublication]].forEach(function (p) {
        var pub = p[1];
        if (!pub || pub.at == null) { return; }
        var key = n.node + p[0] + pub.at;
        if (seen[key]) { return; }
        seen[key] = true;
        addEvent(millis(pub.at), n.node + ': ' + p[0] + ' grant ' + fmt(cores(pub.grant)) + ' cores' +
          (pub.reason ? ' — ' + pub.reason : '') + (pub.error ? ' — error: ' + pub.error : ''));
      });
    });
    events.sort(function (a, b) { return b.time - a.time; });
    var list = document.getElementById('events');
    list.textContent = '';
    events.slice(0, 40).forEach(function (e) { list.appendChild(el('li', {}, stamp(e.time) + ' ' + e.text)); });
  }

  // Who uses Batch: Kubernetes workloads (a Spark application's pods, a Job, ...) and each YARN cluster's applications.
  function renderWorkloads(w) {
    var body = document.querySelector('#workloads tbody');
    body.textContent = '';
    function row(cells, cls) {
      var tr = el('tr', cls ? { 'class': cls } : {});
      cells.forEach(function (c) { tr.appendChild(el('td', {}, String(c))); });
      body.appendChild(tr);
    }
    (w.kubernetes || []).forEach(function (k) {
      row(['Kubernetes', k.namespace + '/' + k.name, k.kind, k.running, k.pending, fmt(k.batchCpuMilli / 1000),
        fmt(k.batchMemoryBytes / 1073741824), 'on ' + k.nodes + ' node' + (k.nodes === 1 ? '' : 's')]);
    });
    if (w.kubernetesOmitted > 0) { row(['Kubernetes', w.kubernetesOmitted + ' smaller workloads not listed', '', '', '', '', '', ''], 'muted'); }
    (w.yarn || []).forEach(function (y) {
      if (!y.reported) { row(['YARN ' + y.clusterId, 'applications not reported (no scheduler plugin report yet)', '', '', '', '', '', ''], 'muted'); return; }
      y.applications.forEach(function (a) {
        row(['YARN ' + y.clusterId, a.applicationId + (a.name ? ' ' + a.name : ''), a.type || 'application', a.containers,
          a.pendingVcores > 0 ? a.pendingVcores + ' vcores' : 0, fmt(a.vcores), fmt(a.memoryMB / 1024),
          'queue ' + a.queue + (a.preemptedContainers > 0 ? ' · ' + a.preemptedContainers + ' preempted' : '')]);
      });
      if (y.omitted > 0) { row(['YARN ' + y.clusterId, y.omitted + ' smaller applications not listed', '', '', '', '', '', ''], 'muted'); }
    });
    if (!body.firstChild) { row(['', 'nothing uses Batch', '', '', '', '', '', ''], 'muted'); }
  }

  // The ElasticQuota tree: min, what each quota may hold now (runtime) and what it holds; a tree over Batch's leaves are
  // Kubernetes quotas or YARN queues.
  function renderQuotas(q) {
    var body = document.querySelector('#quotas tbody');
    body.textContent = '';
    function list(r) {
      return r ? Object.keys(r).map(function (k) { return k.replace('kubernetes.io/', '') + ' ' + r[k]; }).join(', ') : '-';
    }
    function row(cells, cls) {
      var tr = el('tr', cls ? { 'class': cls } : {});
      cells.forEach(function (c) { tr.appendChild(el('td', {}, String(c))); });
      body.appendChild(tr);
    }
    function kind(r) {
      if (r.yarnQueue) { return 'YARN queue ' + r.yarnQueue; }
      if (r.tree) { return (r.depth === 1 ? 'tree ' : r.isParent ? 'tenant, tree ' : 'Kubernetes, tree ') + r.tree; }
      return r.isParent ? 'parent' : 'Kubernetes';
    }
    if (!q) { row(['quotas cannot be read now', '', '', '', '', '', ''], 'muted'); return; }
    if (!q.installed) { row(['no ElasticQuota CRD in this cluster', '', '', '', '', '', ''], 'muted'); return; }
    q.quotas.forEach(function (r) {
      row(['\u00a0\u00a0'.repeat(r.depth - 1) + r.name, r.namespace, kind(r), list(r.min), list(r.runtime), list(r.used),
        r.state === 'unknown' ? 'not written yet' : r.state], r.state === 'borrowing' ? 'warn' : '');
    });
    if (!body.firstChild) { row(['no quotas', '', '', '', '', '', ''], 'muted'); }
  }

  function renderHealth(h) {
    var list = document.getElementById('health');
    list.textContent = '';
    Object.keys(h).sort().forEach(function (name) {
      var r = h[name];
      var level = !r.healthy ? 'bad' : r.warning ? 'warn' : 'ok';
      list.appendChild(el('li', { 'class': level },
        ({ bad: '✘ ', warn: '⚠ ', ok: '✔ ' })[level] + name + (r.message ? ': ' + r.message : '')));
    });
  }

  function refresh() {
    Promise.all([get('api/v1/cluster'), get(nodesPath()), get('api/v1/health'), get('api/v1/workloads?limit=' + PAGE),
      get('api/v1/quotas').catch(function () { return null; })]).then(function (r) {
      renderTotals(r[0]);
      if (r[1].total > 0 && page.offset >= r[1].total) { page.offset = Math.floor((r[1].total - 1) / PAGE) * PAGE; }
      renderNodes(r[1].items || [], r[1].now ? millis(r[1].now) : Date.now());
      renderPager(r[1]);
      renderHealth(r[2]);
      renderWorkloads(r[3]);
      renderQuotas(r[4]);
    }).catch(function (e) {
      document.getElementById('leader').textContent = 'cannot reach the broker: ' + e.message;
    });
  }

  var saved = sessionStorage.getItem('broker-token');
  if (saved) { document.getElementById('token').value = saved; }
  document.getElementById('token').addEventListener('change', function (e) { sessionStorage.setItem('broker-token', e.target.value); });
  document.getElementById('filter').addEventListener('input', function (e) { page.filter = e.target.value.trim(); page.offset = 0; refresh(); });
  document.getElementById('state').addEventListener('change', function (e) { page.state = e.target.value; page.offset = 0; refresh(); });
  document.getElementById('prev').addEventListener('click', function () { page.offset = Math.max(0, page.offset - PAGE); refresh(); });
  document.getElementById('next').addEventListener('click', function () { page.offset += PAGE; refresh(); });
  refresh();
  setInterval(refresh, 2000);
}());
