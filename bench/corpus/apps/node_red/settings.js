// Node-RED settings for the stepforge corpus (copied into the run folder by start.sh).
const path = require("path");
module.exports = {
    uiHost: "127.0.0.1",
    uiPort: parseInt(process.env.NR_PORT || "1880", 10),
    userDir: __dirname,
    flowFile: "flows.json",
    flowFilePretty: true,
    credentialSecret: false,
    httpAdminRoot: "/",
    httpNodeRoot: "/api",
    httpStatic: [{ path: path.join(__dirname, "static"), root: "/static/" }],
    diagnostics: { enabled: false, ui: false },
    telemetry: { enabled: false, updateNotification: false },
    runtimeState: { enabled: false, ui: false },
    logging: { console: { level: "info", metrics: false, audit: false } },
    exportGlobalContextKeys: false,
    externalModules: {
        autoInstall: false,
        palette: { allowInstall: true, allowUpdate: true, allowUpload: false }
    },
    editorTheme: {
        tours: false,
        projects: { enabled: false },
        palette: { catalogues: ["static/catalogue.json"] },
        codeEditor: { lib: "monaco" },
        markdownEditor: { mermaid: { enabled: false } },
        multiplayer: { enabled: false }
    },
    functionExternalModules: false,
    functionTimeout: 0,
    functionGlobalContext: {},
    debugMaxLength: 1000,
    mqttReconnectTime: 15000,
    serialReconnectTime: 15000
};
