package oracle;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The java.time side of Elasticsearch 7.x/8.x dates, as a long-lived process for the fake search cluster
 * (test/helpers/fake-search.ts through test/helpers/java-dates.ts): one JVM answers every format check and every
 * date parse of a test file. All date behaviour comes from the oracle's {@link EsDateOracle.JavaSide}; this class
 * only speaks the protocol, caches one JavaSide per format and sets aside the built-in names the oracle cannot emulate.
 *
 * Protocol: one request per line on stdin, one answer per line on stdout, in request order. Fields are separated by
 * a tab; every text field (format, value, message) is the base64 of its UTF-8 bytes, so it may hold any character.
 * <pre>
 *   ID validate FORMAT      ->  ID valid [UNCHECKED]           UNCHECKED: the built-in names not emulated, joined by ||
 *                               ID invalid MESSAGE CAUSE       as java.time refused it (CAUSE may be empty)
 *   ID parse FORMAT VALUE   ->  ID millis EPOCH_MILLIS         (a plain decimal number, not base64)
 *                               ID unchecked                   no emulated alternative parses it, but a built-in might
 *                               ID failed EXCEPTION MESSAGE    EXCEPTION: the Java class's simple name
 *                               ID invalid MESSAGE CAUSE
 *   anything else           ->  ID error MESSAGE
 * </pre>
 * The process ends at the end of its input.
 */
public final class EsJavaDates {

    /** Elasticsearch's built-in format names (snake_case; camelCase spellings are matched by conversion). */
    static final Set<String> ES_BUILT_IN_NAMES = Set.of(
        "epoch_millis", "epoch_second", "iso8601",
        "date_optional_time", "strict_date_optional_time", "strict_date_optional_time_nanos",
        "basic_date", "basic_date_time", "basic_date_time_no_millis", "basic_ordinal_date", "basic_ordinal_date_time",
        "basic_ordinal_date_time_no_millis", "basic_time", "basic_time_no_millis", "basic_t_time", "basic_t_time_no_millis",
        "basic_week_date", "strict_basic_week_date", "basic_week_date_time", "strict_basic_week_date_time",
        "basic_week_date_time_no_millis", "strict_basic_week_date_time_no_millis",
        "date", "strict_date", "date_hour", "strict_date_hour", "date_hour_minute", "strict_date_hour_minute",
        "date_hour_minute_second", "strict_date_hour_minute_second", "date_hour_minute_second_fraction",
        "strict_date_hour_minute_second_fraction", "date_hour_minute_second_millis", "strict_date_hour_minute_second_millis",
        "date_time", "strict_date_time", "date_time_no_millis", "strict_date_time_no_millis",
        "hour", "strict_hour", "hour_minute", "strict_hour_minute", "hour_minute_second", "strict_hour_minute_second",
        "hour_minute_second_fraction", "strict_hour_minute_second_fraction", "hour_minute_second_millis",
        "strict_hour_minute_second_millis",
        "ordinal_date", "strict_ordinal_date", "ordinal_date_time", "strict_ordinal_date_time",
        "ordinal_date_time_no_millis", "strict_ordinal_date_time_no_millis",
        "time", "strict_time", "time_no_millis", "strict_time_no_millis", "t_time", "strict_t_time",
        "t_time_no_millis", "strict_t_time_no_millis",
        "week_date", "strict_week_date", "week_date_time", "strict_week_date_time", "week_date_time_no_millis",
        "strict_week_date_time_no_millis", "weekyear", "strict_weekyear", "weekyear_week", "strict_weekyear_week",
        "weekyear_week_day", "strict_weekyear_week_day",
        "year", "strict_year", "year_month", "strict_year_month", "year_month_day", "strict_year_month_day");

    /** A format split into what the oracle emulates and the built-in names it does not. */
    static final class CheckedFormat {
        /** The emulated alternatives, in their order; null when there is none. */
        final EsDateOracle.JavaSide emulated;
        final List<String> unchecked;

        CheckedFormat(EsDateOracle.JavaSide emulated, List<String> unchecked) {
            this.emulated = emulated;
            this.unchecked = unchecked;
        }
    }

    /** Per format: a CheckedFormat, or the IllegalArgumentException java.time refused it with. */
    private final Map<String, Object> formats = new HashMap<>();

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        EsJavaDates dates = new EsJavaDates();
        for (String line; (line = in.readLine()) != null; ) {
            out.write(dates.answer(line));
            out.write('\n');
            // Requests arrive in bursts (a whole reindex batch): flush once the burst is answered.
            if (in.ready() == false) out.flush();
        }
        out.flush();
    }

    String answer(String line) {
        String[] fields = line.split("\t", -1);
        String id = fields[0];
        try {
            if (fields.length == 3 && fields[1].equals("validate")) return id + "\t" + validate(decode(fields[2]));
            if (fields.length == 4 && fields[1].equals("parse")) return id + "\t" + parse(decode(fields[2]), decode(fields[3]));
            return id + "\terror\t" + encode("unknown request: " + line);
        } catch (RuntimeException e) {
            // Never die on one request: the fake would lose every answer after it.
            return id + "\terror\t" + encode(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    String validate(String format) {
        Object checked = check(format);
        if (checked instanceof IllegalArgumentException) return refusal((IllegalArgumentException) checked);
        List<String> unchecked = ((CheckedFormat) checked).unchecked;
        return unchecked.isEmpty() ? "valid" : "valid\t" + encode(String.join("||", unchecked));
    }

    String parse(String format, String value) {
        Object checked = check(format);
        if (checked instanceof IllegalArgumentException) return refusal((IllegalArgumentException) checked);
        CheckedFormat f = (CheckedFormat) checked;
        if (f.emulated == null) return "unchecked";
        try {
            return "millis\t" + f.emulated.parseMillis(value);
        } catch (RuntimeException e) {
            if (f.unchecked.isEmpty() == false) return "unchecked";
            return "failed\t" + encode(e.getClass().getSimpleName()) + "\t" + encode(String.valueOf(e.getMessage()));
        }
    }

    private Object check(String format) {
        return formats.computeIfAbsent(format, f -> {
            try {
                return split(f);
            } catch (IllegalArgumentException e) {
                return e;
            }
        });
    }

    /**
     * The oracle's JavaSide refuses every name its heuristic takes for a built-in, so those are set aside here. A name
     * that looks like one but is not an Elasticsearch built-in is read as a pattern, as the engine does: refused if
     * java.time refuses it, else also left unchecked (JavaSide would not parse it).
     */
    static CheckedFormat split(String format) {
        List<String> emulated = new ArrayList<>();
        List<String> unchecked = new ArrayList<>();
        for (String part : EsDateOracle.splitCombined(format)) {
            boolean epoch = part.equals("epoch_millis") || part.equals("epoch_second");
            if (epoch || EsDateOracle.isBuiltinName(part) == false) {
                emulated.add(part);
                continue;
            }
            if (isEsBuiltIn(part) == false) new EsDateOracle.PatternAlt(part); // throws "Invalid format: [...]"
            unchecked.add(part);
        }
        EsDateOracle.JavaSide side = emulated.isEmpty() ? null : new EsDateOracle.JavaSide(String.join("||", emulated));
        return new CheckedFormat(side, unchecked);
    }

    static boolean isEsBuiltIn(String name) {
        if (ES_BUILT_IN_NAMES.contains(name)) return true;
        String snake = String.join("_", name.split("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z])")).toLowerCase(java.util.Locale.ROOT);
        return ES_BUILT_IN_NAMES.contains(snake);
    }

    private static String refusal(IllegalArgumentException e) {
        String cause = e.getCause() == null ? "" : String.valueOf(e.getCause().getMessage());
        return "invalid\t" + encode(String.valueOf(e.getMessage())) + "\t" + encode(cause);
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }

    private static String encode(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
