"""JVM servers: Tomcat catalina.out (OneLineFormatter) and ZooKeeper (log4j/logback default pattern)."""
import random
from datetime import datetime, timedelta

from common import write_log

MON = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def tc_ts(t):
    return "%02d-%s-%d %s.%03d" % (t.day, MON[t.month - 1], t.year, t.strftime("%H:%M:%S"), t.microsecond // 1000)


def npe_trace(rng):
    frames = ["com.acme.shop.web.CartController.addItem(CartController.java:%d)" % rng.randint(60, 140),
              "java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
              "java.base/java.lang.reflect.Method.invoke(Method.java:580)",
              "org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:205)",
              "org.springframework.web.servlet.mvc.method.annotation.ServletInvocableHandlerMethod.invokeAndHandle(ServletInvocableHandlerMethod.java:118)",
              "org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:1089)",
              "org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1014)",
              "javax.servlet.http.HttpServlet.service(HttpServlet.java:555)",
              "org.apache.catalina.core.ApplicationFilterChain.internalDoFilter(ApplicationFilterChain.java:205)",
              "org.apache.catalina.core.StandardWrapperValve.invoke(StandardWrapperValve.java:168)",
              "org.apache.catalina.core.StandardContextValve.invoke(StandardContextValve.java:90)",
              "org.apache.catalina.connector.CoyoteAdapter.service(CoyoteAdapter.java:340)",
              "org.apache.coyote.http11.Http11Processor.service(Http11Processor.java:391)",
              "org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun(NioEndpoint.java:1744)",
              "org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)",
              "java.base/java.lang.Thread.run(Thread.java:1583)"]
    head = rng.choice(['java.lang.NullPointerException: Cannot invoke "com.acme.shop.model.Cart.getItems()" because "cart" is null',
                       "org.springframework.dao.DataAccessResourceFailureException: HikariPool-1 - Connection is not available, request timed out after 30000ms."])
    return ["\t" + head] + ["\t\tat " + f for f in frames]


def tomcat():
    rng = random.Random(4301)
    t = datetime(2024, 3, 18, 7, 58, 2, 311000)
    out = []

    def log(level, thread, src, msg, extra=()):
        out.append("%s %s [%s] %s %s" % (tc_ts(t), level, thread, src, msg))
        out.extend(extra)

    def startup():
        nonlocal t
        V = "org.apache.catalina.startup.VersionLoggerListener.log"
        for m in ["Server version name:   Apache Tomcat/9.0.86", "Server built:          Feb 14 2024 15:02:11 UTC",
                  "Server version number: 9.0.86.0", "OS Name:               Linux", "OS Version:            6.1.0-18-amd64",
                  "Architecture:          amd64", "Java Home:             /opt/java/openjdk", "JVM Version:           17.0.10+7",
                  "JVM Vendor:            Eclipse Adoptium", "CATALINA_BASE:         /usr/local/tomcat",
                  "CATALINA_HOME:         /usr/local/tomcat", "Command line argument: -Djava.util.logging.config.file=/usr/local/tomcat/conf/logging.properties",
                  "Command line argument: -Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager",
                  "Command line argument: -Xms512m", "Command line argument: -Xmx2g", "Command line argument: -Dcatalina.base=/usr/local/tomcat"]:
            log("INFO", "main", V, m)
            t += timedelta(milliseconds=rng.randint(0, 3))
        log("INFO", "main", "org.apache.catalina.core.AprLifecycleListener.lifecycleEvent",
            "The Apache Tomcat Native library which allows using OpenSSL was not found on the java.library.path: [/usr/java/packages/lib:/usr/lib64:/lib64:/lib:/usr/lib]")
        t += timedelta(milliseconds=rng.randint(200, 400))
        log("INFO", "main", "org.apache.coyote.AbstractProtocol.init", 'Initializing ProtocolHandler ["http-nio-8080"]')
        log("INFO", "main", "org.apache.catalina.startup.Catalina.load", "Server initialization in [%d] milliseconds" % rng.randint(600, 900))
        log("INFO", "main", "org.apache.catalina.core.StandardService.startInternal", "Starting service [Catalina]")
        log("INFO", "main", "org.apache.catalina.core.StandardEngine.startInternal", "Starting Servlet engine: [Apache Tomcat/9.0.86]")
        for app in ["shop", "admin"]:
            log("INFO", "main", "org.apache.catalina.startup.HostConfig.deployWAR",
                "Deploying web application archive [/usr/local/tomcat/webapps/%s.war]" % app)
            d = rng.randint(3000, 9000)
            t += timedelta(milliseconds=d)
            log("INFO", "main", "org.apache.jasper.servlet.TldScanner.scanJars",
                "At least one JAR was scanned for TLDs yet contained no TLDs. Enable debug logging for this logger for a complete list of JARs that were scanned but no TLDs were found in them. Skipping unneeded JARs during scanning can improve startup time and JSP compilation time.")
            log("INFO", "main", "org.apache.catalina.startup.HostConfig.deployWAR",
                "Deployment of web application archive [/usr/local/tomcat/webapps/%s.war] has finished in [%s] ms" % (app, format(d, ",")))
        log("INFO", "main", "org.apache.coyote.AbstractProtocol.start", 'Starting ProtocolHandler ["http-nio-8080"]')
        log("INFO", "main", "org.apache.catalina.startup.Catalina.start", "Server startup in [%d] milliseconds" % rng.randint(9000, 19000))

    def shutdown():
        nonlocal t
        log("INFO", "main", "org.apache.catalina.core.StandardServer.await",
            "A valid shutdown command was received via the shutdown port. Stopping the Server instance.")
        log("INFO", "main", "org.apache.coyote.AbstractProtocol.pause", 'Pausing ProtocolHandler ["http-nio-8080"]')
        log("INFO", "main", "org.apache.catalina.core.StandardService.stopInternal", "Stopping service [Catalina]")
        t += timedelta(milliseconds=rng.randint(100, 900))
        log("WARNING", "main", "org.apache.catalina.loader.WebappClassLoaderBase.clearReferencesThreads",
            "The web application [shop] appears to have started a thread named [HikariPool-1 housekeeper] but has failed to stop it. This is very likely to create a memory leak. Stack trace of thread:",
            [" java.base@17.0.10/jdk.internal.misc.Unsafe.park(Native Method)",
             " java.base@17.0.10/java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:269)",
             " java.base@17.0.10/java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take(ScheduledThreadPoolExecutor.java:1182)",
             " java.base@17.0.10/java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1070)",
             " java.base@17.0.10/java.lang.Thread.run(Thread.java:840)"])
        log("INFO", "main", "org.apache.coyote.AbstractProtocol.stop", 'Stopping ProtocolHandler ["http-nio-8080"]')
        log("INFO", "main", "org.apache.coyote.AbstractProtocol.destroy", 'Destroying ProtocolHandler ["http-nio-8080"]')
        t += timedelta(seconds=rng.randint(5, 40))

    startup()
    for cycle in range(3):
        for k in range(70):
            t += timedelta(seconds=rng.randint(5, 400))
            th = "http-nio-8080-exec-%d" % rng.randint(1, 25)
            r = rng.random()
            burst = cycle == 1 and 30 <= k < 45
            if burst or r < 0.12:
                log("SEVERE", th, "org.apache.catalina.core.StandardWrapperValve.invoke",
                    "Servlet.service() for servlet [dispatcherServlet] in context with path [/shop] threw exception", npe_trace(rng))
            elif r < 0.22:
                log("WARNING", th, "org.apache.catalina.util.SessionIdGeneratorBase.createSecureRandom",
                    "Creation of SecureRandom instance for session ID generation using [SHA1PRNG] took [%s] milliseconds." % format(rng.randint(300, 9000), ","))
            elif r < 0.30:
                log("INFO", th, "org.apache.coyote.http11.Http11Processor.service", "Error parsing HTTP request header",
                    [" Note: further occurrences of HTTP request parsing errors will be logged at DEBUG level.",
                     "\tjava.lang.IllegalArgumentException: Invalid character found in method name [0x160x030x010x020x000x010x000x010xfc0x030x03...]. HTTP method names must be tokens",
                     "\t\tat org.apache.coyote.http11.Http11InputBuffer.parseRequestLine(Http11InputBuffer.java:407)",
                     "\t\tat org.apache.coyote.http11.Http11Processor.service(Http11Processor.java:263)",
                     "\t\tat org.apache.coyote.AbstractProcessorLight.process(AbstractProcessorLight.java:63)",
                     "\t\tat java.base/java.lang.Thread.run(Thread.java:840)"])
            elif r < 0.45:
                log("INFO", th, "org.apache.catalina.core.ApplicationContext.log",
                    rng.choice(["Initializing Spring DispatcherServlet 'dispatcherServlet'", "SessionListener: contextInitialized()",
                                "shop: nightly price cache refreshed"]))
            elif r < 0.60:
                log("WARNING", "Catalina-utility-%d" % rng.randint(1, 2), "org.apache.catalina.valves.StuckThreadDetectionValve.notifyStuckThreadDetected",
                    "Thread [%s] (id=[%d]) has been active for [%s] milliseconds (since [3/18/24, 9:01 AM]) to serve the same request for [http://shop.example.com/shop/checkout] and may be stuck (configured threshold for this StuckThreadDetectionValve is [60] seconds). There is/are [1] thread(s) in total that are monitored by this Valve and may be stuck."
                    % (th, rng.randint(30, 80), format(rng.randint(60000, 180000), ",")))
            elif r < 0.64:
                log("INFO", "Catalina-utility-%d" % rng.randint(1, 2), "org.apache.catalina.startup.HostConfig.deployDirectory",
                    "Deployment of web application directory [/usr/local/tomcat/webapps/ROOT] has finished in [%d] ms" % rng.randint(50, 400))
            else:
                log("INFO", th, "org.apache.catalina.core.ApplicationContext.log",
                    "OrderServlet: order %d placed by customer %d" % (rng.randint(100000, 999999), rng.randint(1, 5000)))
        if cycle < 2:
            shutdown()
            startup()
    write_log("tomcat_catalina.out", out)


def zookeeper():
    rng = random.Random(4302)
    t = datetime(2024, 3, 19, 2, 0, 0, 17000)
    out = []
    qp = "QuorumPeer[myid=2](plain=[0:0:0:0:0:0:0:0]:2181)(secure=disabled)"

    def log(level, thread, cls, line, msg, extra=()):
        out.append("%s,%03d [myid:2] - %-5s [%s:%s@%d] - %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 1000,
                                                              level, thread, cls, line, msg))
        out.extend(extra)

    def election():
        log("INFO", qp, "QuorumPeer", 1431, "LOOKING")
        log("INFO", qp, "FastLeaderElection", 945, "New election. My id = 2, proposed zxid=0x%x" % rng.randint(0x200000000, 0x2ffffffff))
        ms = rng.randint(150, 4000)
        log("INFO", "WorkerReceiver[myid=2]", "FastLeaderElection$Messenger$WorkerReceiver", 389,
            "Notification: my state:LOOKING; n.sid:1, n.state:LOOKING, n.leader:3, n.round:0x%x, n.peerEpoch:0x2, n.zxid:0x200000af1, message format version:0x2, n.config version:0x0" % rng.randint(2, 9))
        log("INFO", qp, "QuorumPeer", 1513, "FOLLOWING")
        log("INFO", qp, "Learner", 91, "TCP NoDelay set to: true")
        log("INFO", qp, "Follower", 75, "FOLLOWING - LEADER ELECTION TOOK - %d MS" % ms)

    sessions = ["0x%x" % (0x100000abc000000 + rng.randint(0, 0xffffff)) for _ in range(40)]
    clients = ["10.0.3.%d" % rng.randint(10, 90) for _ in range(25)]
    log("INFO", "main", "QuorumPeerConfig", 177, "Reading configuration from: /conf/zoo.cfg")
    log("INFO", "main", "QuorumPeerMain", 138, "Starting quorum peer, myid=2")
    election()
    for i in range(1100):
        t += timedelta(milliseconds=rng.randint(50, 9000))
        r = rng.random()
        if 500 <= i < 530:  # disk stall: fsync warnings and client drops
            log("WARN", "SyncThread:2", "FileTxnLog", 275,
                "fsync-ing the write ahead log in SyncThread:2 took %dms which will adversely effect operation latency.File size is 67108880 bytes. See the ZooKeeper troubleshooting guide" % rng.randint(1001, 14000))
        elif i == 560:
            log("WARN", qp, "Follower", 131, "Exception when following the leader",
                ["java.net.SocketTimeoutException: Read timed out", "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)",
                 "\tat java.base/java.io.BufferedInputStream.fill(BufferedInputStream.java:244)",
                 "\tat org.apache.jute.BinaryInputArchive.readInt(BinaryInputArchive.java:96)",
                 "\tat org.apache.zookeeper.server.quorum.Learner.readPacket(Learner.java:218)",
                 "\tat org.apache.zookeeper.server.quorum.Follower.followLeader(Follower.java:127)",
                 "\tat org.apache.zookeeper.server.quorum.QuorumPeer.run(QuorumPeer.java:1522)"])
            log("INFO", qp, "Follower", 302, "shutdown Follower")
            election()
        elif 561 <= i < 575:
            log("ERROR", "QuorumConnectionThread-[myid=2]-%d" % rng.randint(1, 9), "QuorumCnxManager", 401,
                "Cannot open channel to 3 at election address zk-3.zk-hs.default.svc.cluster.local/10.0.3.13:3888",
                ["java.net.ConnectException: Connection refused",
                 "\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)",
                 "\tat java.base/sun.nio.ch.NioSocketImpl.timedFinishConnect(NioSocketImpl.java:549)",
                 "\tat org.apache.zookeeper.server.quorum.QuorumCnxManager.initiateConnection(QuorumCnxManager.java:384)",
                 "\tat java.base/java.lang.Thread.run(Thread.java:829)"])
        elif r < 0.25:
            log("INFO", "NIOWorkerThread-%d" % rng.randint(1, 8), "NIOServerCnxn", 518,
                "Processing %s command from /%s:%d" % (rng.choice(["ruok", "srvr", "mntr"]), rng.choice(clients), rng.randint(30000, 60000)))
        elif r < 0.50:
            log("INFO", "CommitProcessor:2", "LearnerSessionTracker", 116, "Committing global session %s" % rng.choice(sessions))
        elif r < 0.62:
            log("INFO", "SessionTracker", "ZooKeeperServer", 610,
                "Expiring session %s, timeout of %dms exceeded" % (rng.choice(sessions), rng.choice([10000, 30000, 40000])))
        elif r < 0.78:
            s = rng.choice(sessions)
            log("WARN", "NIOWorkerThread-%d" % rng.randint(1, 8), "NIOServerCnxn", 380, "Unexpected exception",
                ["EndOfStreamException: Unable to read additional data from client, it probably closed the socket: address = /%s:%d, session = %s"
                 % (rng.choice(clients), rng.randint(30000, 60000), s),
                 "\tat org.apache.zookeeper.server.NIOServerCnxn.handleFailedRead(NIOServerCnxn.java:163)",
                 "\tat org.apache.zookeeper.server.NIOServerCnxn.doIO(NIOServerCnxn.java:326)",
                 "\tat org.apache.zookeeper.server.NIOServerCnxnFactory$IOWorkRequest.doWork(NIOServerCnxnFactory.java:522)",
                 "\tat org.apache.zookeeper.server.WorkerService$ScheduledWorkRequest.run(WorkerService.java:154)",
                 "\tat java.base/java.lang.Thread.run(Thread.java:829)"])
        elif r < 0.85:
            log("INFO", "SyncThread:2", "FileTxnLog", 284, "Creating new log file: log.%x" % rng.randint(0x200000000, 0x2ffffffff))
        else:
            log("INFO", "NIOWorkerThread-%d" % rng.randint(1, 8), "ZooKeeperServer", 1410,
                "got auth packet /%s:%d" % (rng.choice(clients), rng.randint(30000, 60000)))
    write_log("zookeeper.log", out)


def run():
    tomcat()
    zookeeper()
