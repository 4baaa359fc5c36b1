package io.colocation.simulator.sweep;

import java.util.List;
import java.util.Locale;

/** A sweep's picture: cluster CPU against evictions + preemptions per 1,000 tasks, each run labelled with its value, the frontier joined. SVG. */
final class FrontierChart {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 480;
    private static final int LEFT = 70;
    private static final int RIGHT = 30;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;

    private FrontierChart() {
    }

    static String svg(String key, List<Sweep.Point> points, List<Sweep.Point> frontier) {
        double maxX = 1;
        double minY = 100;
        double maxY = 0;
        for (Sweep.Point p : points) {
            maxX = Math.max(maxX, p.disruptionsPerThousand());
            minY = Math.min(minY, p.cpuMeanPercent());
            maxY = Math.max(maxY, p.cpuMeanPercent());
        }
        maxX = niceAbove(maxX * 1.1);
        double low = Math.max(0, Math.floor(minY / 5) * 5 - 5);
        double high = Math.min(100, Math.ceil(maxY / 5) * 5 + 5);
        int w = WIDTH - LEFT - RIGHT;
        int h = HEIGHT - TOP - BOTTOM;
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        b.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\">Sweep of %s: cluster CPU against disruption</text>%n",
                LEFT, escape(key)));
        for (int i = 0; i <= 4; i++) {
            double yv = low + (high - low) * i / 4;
            double y = TOP + h - h * i / 4.0;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", LEFT, y, LEFT + w, y));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f %%</text>%n", LEFT - 6, y + 4, yv));
            double xv = maxX * i / 4;
            double x = LEFT + w * i / 4.0;
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.1f</text>%n", x, TOP + h + 18, xv));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">evictions + preemptions per 1,000 batch tasks</text>%n",
                LEFT + w / 2, HEIGHT - 14));
        b.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">cluster CPU, mean</text>%n",
                TOP + h / 2, TOP + h / 2));
        StringBuilder line = new StringBuilder();
        for (Sweep.Point p : frontier) {
            line.append(line.isEmpty() ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x(p, maxX, w), y(p, low, high, h)));
        }
        if (!line.isEmpty()) {
            b.append("<path d=\"").append(line).append("\" fill=\"none\" stroke=\"#2a7\" stroke-width=\"2\"/>\n");
        }
        for (Sweep.Point p : points) {
            boolean on = frontier.contains(p);
            double x = x(p, maxX, w);
            double y = y(p, low, high, h);
            b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>%n", x, y,
                    p.overcommitSamples() > 0 ? "#c33" : on ? "#2a7" : "#999"));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%d%s</text>%n", x + 8, y - 6, p.value(),
                    p.overcommitSamples() > 0 ? " (overcommit)" : ""));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static double x(Sweep.Point p, double maxX, int w) {
        return LEFT + w * p.disruptionsPerThousand() / maxX;
    }

    private static double y(Sweep.Point p, double low, double high, int h) {
        return TOP + h - h * (p.cpuMeanPercent() - low) / Math.max(1e-9, high - low);
    }

    private static double niceAbove(double v) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * magnitude >= v) {
                return m * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
