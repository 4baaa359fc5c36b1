{{/* Labels every object of the release carries. */}}
{{- define "colocation.labels" -}}
app.kubernetes.io/name: colocation
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* The product's image, for the broker, the k8s-scheduler and the koordlet. */}}
{{- define "colocation.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* PodDisruptionBudget's API: policy/v1 from Kubernetes 1.21 (policy/v1beta1 is gone in 1.25). */}}
{{- define "colocation.pdbApiVersion" -}}
{{- if semverCompare ">=1.21-0" .Capabilities.KubeVersion.Version -}}policy/v1{{- else -}}policy/v1beta1{{- end -}}
{{- end }}

{{/* The security context of a part that needs no privilege: non-root, read-only root, no capability. */}}
{{- define "colocation.restricted" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/*
A bound service-account token, the cluster's CA and the namespace at the path every client reads them from: what
Kubernetes 1.22 and later mount by default, mounted the same way on 1.20 and 1.21. The token names its pod (the
node-agent webhook binds the koordlet to its node by it) and expires; the kubelet renews it.
*/}}
{{- define "colocation.tokenVolume" -}}
- name: token
  projected:
    sources:
      - serviceAccountToken: {path: token, expirationSeconds: 3607}
      - configMap:
          name: kube-root-ca.crt
          items: [{key: ca.crt, path: ca.crt}]
      - downwardAPI:
          items: [{path: namespace, fieldRef: {fieldPath: metadata.namespace}}]
{{- end }}
{{- define "colocation.tokenMount" -}}
- {name: token, mountPath: /var/run/secrets/kubernetes.io/serviceaccount, readOnly: true}
{{- end }}
