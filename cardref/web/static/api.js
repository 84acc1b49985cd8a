// A readable view of /openapi.json, served by cardref itself (FastAPI's Swagger UI would load from the internet).
"use strict";

(() => {
  CR.nav("/docs");
  const box = document.getElementById("ops");
  let spec = null;

  function ref(schema) {
    if (!schema) return "";
    if (schema.$ref) return schema.$ref.split("/").pop();
    if (schema.type === "array") return `list of ${ref(schema.items)}`;
    if (schema.anyOf) return schema.anyOf.map(ref).join(" | ");
    return schema.type || "object";
  }

  function fields(name) {
    const s = spec.components && spec.components.schemas && spec.components.schemas[name];
    if (!s || !s.properties) return null;
    const t = CR.el("table", "list");
    for (const [k, v] of Object.entries(s.properties)) {
      const tr = CR.el("tr");
      tr.appendChild(CR.el("td", null, k + ((s.required || []).includes(k) ? " *" : "")));
      tr.appendChild(CR.el("td", "muted", ref(v)));
      tr.appendChild(CR.el("td", null, [v.title, v.description].filter(Boolean).join(": ")));
      t.appendChild(tr);
    }
    return t;
  }

  function render() {
    const q = document.getElementById("filter").value.toLowerCase();
    box.innerHTML = "";
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const text = `${method} ${path} ${op.summary || ""} ${(op.tags || []).join(" ")}`.toLowerCase();
        if (q && !text.includes(q)) continue;
        const p = CR.el("div", "panel");
        const head = CR.el("div", "row");
        head.appendChild(CR.el("span", "pill", method.toUpperCase()));
        head.appendChild(CR.el("code", null, path));
        head.appendChild(CR.el("span", "muted", op.summary || ""));
        p.appendChild(head);
        if (op.description) p.appendChild(CR.el("p", "muted", op.description));
        const params = (op.parameters || []).map((x) => `${x.name} (${x.in}${x.required ? ", required" : ""})${x.description ? ": " + x.description : ""}`);
        if (params.length) p.appendChild(CR.el("div", null, `parameters: ${params.join("; ")}`));
        const body = op.requestBody && op.requestBody.content;
        if (body) {
          const [type, media] = Object.entries(body)[0];
          const name = ref(media.schema);
          p.appendChild(CR.el("div", null, `body (${type}): ${name}`));
          const t = fields(name);
          if (t) p.appendChild(t);
        }
        const ok = op.responses && (op.responses["200"] || op.responses["201"] || op.responses["202"]);
        if (ok && ok.content) {
          const media = Object.values(ok.content)[0];
          if (media.schema) p.appendChild(CR.el("div", "muted", `returns: ${ref(media.schema)}`));
        }
        box.appendChild(p);
      }
    }
  }

  document.getElementById("filter").oninput = render;
  fetch("/openapi.json").then((r) => r.json()).then((s) => { spec = s; render(); });
})();
