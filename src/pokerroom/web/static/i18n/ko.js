// Korean, the default: every user-visible string of the web client, by key (see ../i18n.js), in four parts.

import table from "./ko/table.js";
import rooms from "./ko/rooms.js";
import rules from "./ko/rules.js";
import server from "./ko/server.js";

export default { ...table, ...server, ...rooms, ...rules };
