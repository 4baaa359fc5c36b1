package io.colocation.simulator.measure;

import java.util.List;
import java.util.Locale;

/**
 * The picture of a run: cluster CPU over the simulated day as a share of capacity, stacked online (with the system),
 * Kubernetes batch and YARN, with the Batch the broker reclaimed as a line. SVG, for any browser.
 */
final class UtilisationChart {
    private static final int WIDTH = 960;
    private static final int HEIGHT = 400;
    private static final int LEFT = 60;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;

    private UtilisationChart() {
    }

    static String svg(List<ClusterSampler.Sample> samples, String title) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        b.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">Cluster CPU: %s</text>%n", LEFT, escape(title)));
        int w = WIDTH - LEFT - RIGHT;
        int h = HEIGHT - TOP - BOTTOM;
        for (int p = 0; p <= 100; p += 25) {
            double y = TOP + h - h * p / 100.0;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", LEFT, y, LEFT + w, y));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d %%</text>%n", LEFT - 6, y + 4, p));
        }
        if (samples.size() >= 2) {
            long t0 = samples.get(0).timeMillis();
            double span = Math.max(1, samples.get(samples.size() - 1).timeMillis() - t0);
            double[] x = new double[samples.size()];
            double[][] layers = new double[4][samples.size()];
            double[] batch = new double[samples.size()];
            for (int i = 0; i < samples.size(); i++) {
                ClusterSampler.Sample s = samples.get(i);
                x[i] = LEFT + w * (s.timeMillis() - t0) / span;
                double cap = Math.max(1e-9, s.capacityCores());
                layers[0][i] = 0;
                layers[1][i] = (s.online() + s.system()) / cap;
                layers[2][i] = layers[1][i] + s.kubernetes() / cap;
                layers[3][i] = layers[2][i] + s.yarn() / cap;
                batch[i] = layers[1][i] + s.originCores() / cap;
            }
            String[] colors = {"#4e79a7", "#59a14f", "#f28e2b"};
            for (int l = 1; l <= 3; l++) {
                StringBuilder poly = new StringBuilder();
                for (int i = 0; i < x.length; i++) {
                    poly.append(String.format(Locale.ROOT, "%.1f,%.1f ", x[i], TOP + h - h * Math.min(1, layers[l][i])));
                }
                for (int i = x.length - 1; i >= 0; i--) {
                    poly.append(String.format(Locale.ROOT, "%.1f,%.1f ", x[i], TOP + h - h * Math.min(1, layers[l - 1][i])));
                }
                b.append("<polygon fill=\"").append(colors[l - 1]).append("\" fill-opacity=\"0.85\" points=\"").append(poly.toString().trim())
                        .append("\"/>\n");
            }
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < x.length; i++) {
                line.append(String.format(Locale.ROOT, "%.1f,%.1f ", x[i], TOP + h - h * Math.min(1, batch[i])));
            }
            b.append("<polyline fill=\"none\" stroke=\"#333\" stroke-dasharray=\"4 3\" points=\"").append(line.toString().trim())
                    .append("\"/>\n");
            double hours = span / 3.6e6;
            int every = hours > 12 ? 3 : hours > 4 ? 1 : 0;
            for (int hh = 0; every > 0 && hh <= hours; hh += every) {
                double xx = LEFT + w * hh / hours;
                b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d h</text>%n", xx, TOP + h + 16, hh));
            }
        }
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n", LEFT, TOP, w, h));
        String[][] legend = {{"#4e79a7", "online pods + system"}, {"#59a14f", "Kubernetes batch"}, {"#f28e2b", "YARN"}};
        int lx = LEFT;
        for (String[] l : legend) {
            b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", lx, HEIGHT - 24, l[0]));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 16, HEIGHT - 14, l[1]));
            lx += 200;
        }
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>", lx,
                HEIGHT - 18, lx + 14, HEIGHT - 18));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">online + Batch reclaimed (the broker's origin)</text>%n", lx + 18,
                HEIGHT - 14));
        b.append("</svg>\n");
        return b.toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
