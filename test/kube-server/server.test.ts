// One test file for the whole Kubernetes API test server: every suite drives it through the
// real @kubernetes/client-node, whose import costs a second or two per test process, so the
// suites share one process instead of paying that six times.
import './discovery.suite.js';
import './crud.suite.js';
import './ssa.suite.js';
import './watch.suite.js';
import './controllers.suite.js';
import './faults.suite.js';
