package oracle;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.security.Permission;
import java.util.Arrays;
import java.util.Base64;

/**
 * Runs of the shared oracle's command ({@link EsDateOracle#main}), many in one JVM: the date-format tests check a few
 * hundred pairs of patterns, and a JVM started for each spent more CPU starting than checking (test/helpers/dates-oracle.ts).
 * Each run is what a JVM of its own would do: the oracle's class (whose options are static fields a second run would
 * inherit) is loaded afresh for it, its output is its own, and its System.exit ends the run with that code instead of
 * the JVM (through a security manager, which Java 17 allows, and 18 to 23 with -Djava.security.manager=allow).
 *
 * Protocol: first line out "ready", or "unsupported" where the JVM refuses a security manager (the caller then
 * starts a JVM per run). Then one request per line on stdin: an id, then each argument of the oracle's command as the
 * base64 of its UTF-8, tab-separated; one answer per line, in order: the id, the exit code, and the base64 of the
 * run's output (standard output and standard error together). The process ends at the end of its input.
 */
public final class EsDateOracleRuns {

    /** The code a run's System.exit asked for, thrown out of the run. */
    static final class Exit extends SecurityException {
        final int code;

        Exit(int code) {
            super("exit " + code);
            this.code = code;
        }
    }

    /** Loads oracle.EsDateOracle and its nested classes itself, each run anew; everything else from the JVM's loader. */
    static final class FreshOracle extends ClassLoader {
        FreshOracle(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals("oracle.EsDateOracle") && !name.startsWith("oracle.EsDateOracle$")) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        if (in == null) throw new ClassNotFoundException(name);
                        byte[] bytes = in.readAllBytes();
                        loaded = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) resolveClass(loaded);
                return loaded;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        try {
            System.setSecurityManager(new SecurityManager() {
                @Override
                public void checkPermission(Permission permission) {}

                @Override
                public void checkPermission(Permission permission, Object context) {}

                @Override
                public void checkExit(int status) {
                    throw new Exit(status);
                }
            });
        } catch (UnsupportedOperationException | SecurityException e) {
            answers.println("unsupported");
            return;
        }
        answers.println("ready");
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Base64.Decoder base64 = Base64.getDecoder();
        for (String line; (line = requests.readLine()) != null; ) {
            String[] fields = line.split("\t", -1);
            String[] oracleArgs = new String[fields.length - 1];
            for (int i = 1; i < fields.length; i++) oracleArgs[i - 1] = new String(base64.decode(fields[i]), StandardCharsets.UTF_8);
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int code = run(oracleArgs, new PrintStream(output, true, StandardCharsets.UTF_8));
            answers.println(fields[0] + "\t" + code + "\t" + Base64.getEncoder().encodeToString(output.toByteArray()));
        }
    }

    /** One run of the oracle's command, writing to `output`: its exit code, as `java oracle.EsDateOracle ARGS` ends. */
    static int run(String[] args, PrintStream output) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        System.setOut(output);
        System.setErr(output);
        try {
            new FreshOracle(EsDateOracleRuns.class.getClassLoader()).loadClass("oracle.EsDateOracle").getMethod("main", String[].class).invoke(null, (Object) args);
            return 0;
        } catch (InvocationTargetException e) {
            Throwable thrown = e.getCause();
            if (thrown instanceof Exit exit) return exit.code;
            // As the JVM ends on an uncaught exception: its stack trace up to the oracle's main (not this runner's
            // frames), under the same heading, and 1.
            StackTraceElement[] frames = thrown.getStackTrace();
            int end = frames.length;
            for (int i = 0; i < frames.length; i++) {
                if (frames[i].getClassName().equals("oracle.EsDateOracle") && frames[i].getMethodName().equals("main")) end = i + 1;
            }
            thrown.setStackTrace(Arrays.copyOf(frames, end));
            output.print("Exception in thread \"main\" ");
            thrown.printStackTrace(output);
            return 1;
        } catch (ReflectiveOperationException e) {
            e.printStackTrace(output);
            return 1;
        } finally {
            output.flush();
            System.setOut(stdout);
            System.setErr(stderr);
        }
    }
}
