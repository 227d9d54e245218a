// The reviewer console's only script (served from /console/static/console.js). It keeps the
// inbox counts and the document statuses current without a reload, uploads files with a
// progress bar and streams answers; every page but the upload works without it.
(function () {
  'use strict';
  if (!window.fetch) return;

  function csrfOf(form) { return form.querySelector('input[name=csrf_token]').value; }
  // A refused console POST: its JSON message (the server's readable text) as the error.
  function refused(r) {
    return r.json().then(function (e) { throw new Error(e.message || 'refused'); },
                         function () { throw new Error('refused (' + r.status + ')'); });
  }
  function post(url, form, fields, accept) {
    var body = new URLSearchParams(fields);
    body.set('csrf_token', csrfOf(form));
    return fetch(url, { method: 'POST', credentials: 'same-origin', body: body,
                        headers: { accept: accept } });
  }

  // Inbox: the counts every 15 s and when the tab becomes visible.
  var summary = document.getElementById('summary');
  if (summary) {
    var countsUrl = '/console/counts?workspace=' + encodeURIComponent(summary.dataset.workspace);
    var refreshCounts = function () {
      fetch(countsUrl, { credentials: 'same-origin', headers: { accept: 'application/json' } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (counts) {
          if (!counts) return;
          document.querySelectorAll('[data-count]').forEach(function (el) {
            var key = el.dataset.count;
            var value = key === 'tasks' ? counts.tasks : counts.statuses[key];
            if (value !== undefined && el.textContent !== value) el.textContent = value;
          });
        })
        .catch(function () { /* offline for a moment: keep the last counts */ });
    };
    window.setInterval(refreshCounts, 15000);
    document.addEventListener('visibilitychange', function () {
      if (!document.hidden) refreshCounts();
    });
  }

  // Documents: the rows follow /console/documents.json every 3 s while one is not final.
  var table = document.getElementById('documents');
  var polling = null;
  function cell(row, index) { return row.children[index]; }
  function newRow(doc) {
    var row = document.createElement('tr');
    row.dataset.documentId = doc.id;
    var link = document.createElement('a');
    link.href = '/console/documents/' + encodeURIComponent(doc.id) + '/view?page=1';
    link.textContent = doc.filename;
    var status = document.createElement('span');
    var time = document.createElement('time');
    [link, status, null, time].forEach(function (child, i) {
      var td = document.createElement('td');
      if (i === 2) td.className = 'pages';
      if (child) td.appendChild(child);
      row.appendChild(td);
    });
    return row;
  }
  function showDocuments(list) {
    var body = table.tBodies[0];
    list.documents.slice().reverse().forEach(function (doc) {
      var row = body.querySelector('tr[data-document-id="' + doc.id + '"]');
      if (!row) {
        row = newRow(doc);
        body.insertBefore(row, body.firstChild);
      }
      var status = cell(row, 1).firstChild;
      if (status.dataset.status !== doc.status) {
        status.className = 'status status-' + doc.status;
        status.dataset.status = doc.status;
        status.textContent = doc.status;
      }
      cell(row, 2).textContent = doc.pages;
      var time = cell(row, 3).firstChild;
      time.setAttribute('datetime', doc.created_at);
      time.textContent = doc.age;
    });
    var empty = document.getElementById('no-documents');
    if (empty && list.documents.length) empty.hidden = true;
    table.dataset.pending = String(list.pending);
  }
  function pollDocuments() {
    if (polling) return;
    var url = '/console/documents.json?workspace=' + encodeURIComponent(table.dataset.workspace);
    var started = Date.now();
    polling = window.setInterval(function () {
      fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (list) {
          if (!list) return;
          showDocuments(list);
          // Ten minutes at most: a document stuck on the way is shown as it is.
          if (!list.pending || Date.now() - started > 600000) {
            window.clearInterval(polling);
            polling = null;
          }
        })
        .catch(function () { /* offline for a moment: try again */ });
    }, 3000);
  }
  if (table && table.dataset.pending === 'true') pollDocuments();

  // Upload: create (console POST) → PUT to the signed URL with progress → complete.
  var uploadForm = document.getElementById('upload-form');
  if (uploadForm && table) {
    var progress = document.getElementById('upload-progress');
    var said = document.getElementById('upload-status');
    var say = function (text) { said.textContent = text; };
    uploadForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var file = document.getElementById('upload-file').files[0];
      if (!file) return;
      var workspace = uploadForm.querySelector('input[name=workspace]').value;
      var fields = { workspace: workspace, filename: file.name, file_size: String(file.size),
                     content_type: file.type || 'application/octet-stream' };
      var button = document.getElementById('upload-button');
      button.disabled = true;
      progress.value = 0;
      say('Starting the upload of ' + file.name + '…');
      post('/console/uploads', uploadForm, fields, 'application/json')
        .then(function (r) { return r.ok ? r.json() : refused(r); })
        .then(function (session) {
          return new Promise(function (resolve, reject) {
            var xhr = new XMLHttpRequest();
            xhr.open(session.upload_method || 'PUT', session.upload_url);
            var headers = session.upload_headers || {};
            Object.keys(headers).forEach(function (h) { xhr.setRequestHeader(h, headers[h]); });
            xhr.upload.addEventListener('progress', function (e) {
              if (e.lengthComputable) progress.value = Math.round(100 * e.loaded / e.total);
            });
            xhr.addEventListener('load', function () {
              if (xhr.status >= 200 && xhr.status < 300) resolve(session);
              else reject(new Error('the storage refused the file (' + xhr.status + ')'));
            });
            xhr.addEventListener('error', function () { reject(new Error('the connection failed')); });
            say('Sending ' + file.name + '…');
            xhr.send(file);
          });
        })
        .then(function (session) {
          progress.value = progress.max;
          fields.doc_id = session.doc_id;
          fields.storage_source_path = session.storage_source_path;
          return post('/console/uploads/complete', uploadForm, fields, 'application/json');
        })
        .then(function (r) { return r.ok ? r.json() : refused(r); })
        .then(function () {
          say(file.name + ' is uploaded; its status below follows ingestion.');
          uploadForm.reset();
          table.dataset.pending = 'true';
          pollDocuments();
        })
        .catch(function (e) { say('The upload failed: ' + e.message); })
        .then(function () { button.disabled = false; });
    });
  }

  // Ask: the answer streams in (server-sent events over fetch), then its citations.
  var askForm = document.getElementById('ask-form');
  if (askForm && window.ReadableStream && window.TextDecoder) {
    var section = document.getElementById('answer');
    var text = document.getElementById('answer-text');
    var citations = document.getElementById('citations');
    var workspaceOf = askForm.querySelector('input[name=workspace]').value;
    var citationLink = function (c) {
      if (c.run_id) return '/console/runs/' + encodeURIComponent(c.run_id);
      if (!c.document_id) return null;
      return '/console/documents/' + encodeURIComponent(c.document_id) + '/view?page=' +
        (c.page || 1) + '&quote=' + encodeURIComponent(c.quote || '') + '&workspace=' +
        encodeURIComponent(workspaceOf) + '#highlight';
    };
    var onFrame = function (frame) {
      if (frame.type === 'token') {
        text.textContent += frame.content;
        section.dataset.tokens = String(Number(section.dataset.tokens || 0) + 1);
      } else if (frame.type === 'done') {
        text.textContent = frame.answer;
        text.dataset.refused = String(!!frame.refused);
        text.classList.toggle('refusal', !!frame.refused);
        (frame.citations || []).forEach(function (c) {
          var li = document.createElement('li');
          var href = citationLink(c);
          var label = '[' + c.source_number + '] ' + (c.doc_name || '') + ', page ' + c.page;
          var a = document.createElement(href ? 'a' : 'span');
          if (href) { a.href = href; a.className = 'citation'; }
          a.textContent = label;
          var q = document.createElement('q');
          q.textContent = c.quote || '';
          li.appendChild(a);
          li.appendChild(document.createTextNode(' '));
          li.appendChild(q);
          citations.appendChild(li);
        });
        section.dataset.done = 'true';
      } else if (frame.type === 'error') {
        text.textContent = 'The answer could not be made: ' + (frame.message || 'try again.');
      }
    };
    askForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var button = document.getElementById('ask-button');
      button.disabled = true;
      section.hidden = false;
      section.dataset.done = 'false';
      section.dataset.tokens = '0';
      text.textContent = '';
      text.classList.remove('refusal');
      citations.textContent = '';
      var body = new URLSearchParams(new FormData(askForm));
      fetch('/console/ask', { method: 'POST', credentials: 'same-origin', body: body,
                              headers: { accept: 'text/event-stream' } })
        .then(function (r) {
          if (!r.ok) return refused(r);
          var reader = r.body.getReader();
          var decoder = new TextDecoder();
          var buffered = '';
          var pump = function () {
            return reader.read().then(function (chunk) {
              if (chunk.done) return;
              buffered += decoder.decode(chunk.value, { stream: true });
              var end;
              while ((end = buffered.indexOf('\n\n')) >= 0) {
                var event = buffered.slice(0, end);
                buffered = buffered.slice(end + 2);
                if (event.indexOf('data: ') === 0) onFrame(JSON.parse(event.slice(6)));
              }
              return pump();
            });
          };
          return pump();
        })
        .catch(function (e) { text.textContent = 'The question was refused: ' + e.message; })
        .then(function () { button.disabled = false; });
    });
  }
})();
