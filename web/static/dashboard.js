/* AssetCheck dashboard: uploads with progress, live job status, copy buttons, confirmations.
   No framework. Text from the server is always set with textContent, never parsed as HTML. */
"use strict";

(function () {
  const POLL_MS = 1000;
  const PARALLEL_UPLOADS = 2;
  const xsrfToken = document.body.dataset.xsrf;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function formatSize(bytes) {
    if (bytes < 1024) return bytes + " B";
    if (bytes < 1048576) return (bytes / 1024).toFixed(1) + " KB";
    return (bytes / 1048576).toFixed(1) + " MB";
  }

  async function fetchJob(jobId) {
    const response = await fetch("/jobs/" + encodeURIComponent(jobId) + "/status",
                                 {headers: {Accept: "application/json"}});
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || "The job's status could not be read.");
    return body;
  }

  /* Ask for the job's status every second until it ends; onChange sees every answer. */
  function watchJob(jobId, onChange, onError) {
    const poll = async () => {
      let job;
      try {
        job = await fetchJob(jobId);
      } catch (error) {
        onError(error.message);
        return;
      }
      onChange(job);
      if (job.status === "queued" || job.status === "processing") setTimeout(poll, POLL_MS);
    };
    poll();
  }

  function uploadError(request) {
    const body = request.response;
    if (request.status === 401) return "Your session has ended: log in again, then upload.";
    if (body && body.error) return body.error;
    return "The upload failed (HTTP " + request.status + ").";
  }

  /* One file of the upload list: upload progress, then the job's live status. */
  class UploadItem {
    constructor(file, list) {
      this.file = file;
      this.node = element("li", "upload-item");
      this.progress = element("progress");
      this.progress.max = 100;
      this.progress.value = 0;
      this.progress.setAttribute("aria-label", "Progress of " + file.name);
      this.status = element("p", "status-text", "Waiting to upload…");
      this.result = element("div", "result");
      const name = element("span", "name file-name", file.name);
      name.title = file.name;  // a long name ends in an ellipsis: the whole of it on hover
      this.node.append(name, this.progress, this.result, this.status);
      list.append(this.node);
    }

    send(url, engine) {
      return new Promise((resolve) => {
        const body = new FormData();
        body.append("options", JSON.stringify({engine: engine}));
        body.append("file", this.file);
        const request = new XMLHttpRequest();
        request.open("POST", url);
        request.responseType = "json";
        request.setRequestHeader("X-XSRFToken", xsrfToken);
        request.upload.addEventListener("progress", (event) => {
          if (event.lengthComputable) this.showUploaded(event.loaded / event.total);
        });
        request.addEventListener("load", () => {
          if (request.status === 202) this.follow(request.response.job_id);
          else this.fail(uploadError(request));
          resolve();
        });
        request.addEventListener("error", () => {
          this.fail("The upload was interrupted: check the connection and try again.");
          resolve();
        });
        this.status.textContent = "Uploading…";
        request.send(body);
      });
    }

    showUploaded(share) {
      const percent = Math.round(share * 100);
      this.progress.value = percent;
      this.status.textContent = "Uploading: " + formatSize(Math.round(share * this.file.size)) +
        " of " + formatSize(this.file.size) + " (" + percent + " %)";
    }

    follow(jobId) {
      this.progress.value = 0;
      this.status.textContent = "Queued: waiting for a worker";
      this.result.replaceChildren(this.jobLink(jobId, "Job page"));
      watchJob(jobId, (job) => this.showJob(job), (message) => this.fail(message));
    }

    showJob(job) {
      this.progress.value = job.progress;
      if (job.status === "queued") {
        this.status.textContent = "Queued: waiting for a worker";
      } else if (job.status === "processing") {
        this.status.textContent = "Processing: " + job.progress + " %";
      } else if (job.status === "completed") {
        this.status.textContent = "Completed: health score " + job.health_score + " of 100";
        const chip = element("span", "chip grade grade-" + job.grade, job.grade);
        this.result.replaceChildren(chip, " ", this.jobLink(job.job_id, "Open the report"));
        this.node.classList.add("completed");
      } else {
        this.fail("Failed: " + job.error.message + " (" + job.error.code + ")");
      }
    }

    jobLink(jobId, text) {
      const link = element("a", "", text);
      link.href = "/jobs/" + encodeURIComponent(jobId);
      return link;
    }

    fail(message) {
      this.node.classList.add("failed");
      this.status.textContent = message;
    }
  }

  function setUpUploads(form) {
    const input = form.querySelector("#files");
    const zone = form.querySelector("#dropzone");
    const engine = form.querySelector("#engine");
    const list = document.getElementById("upload-list");
    const maxBytes = Number(form.dataset.maxBytes);
    const waiting = [];
    let running = 0;

    const next = () => {
      while (running < PARALLEL_UPLOADS && waiting.length) {
        running += 1;
        waiting.shift().send(form.action, engine.value).then(() => {
          running -= 1;
          next();
        });
      }
    };
    const add = (files) => {
      for (const file of files) {
        const item = new UploadItem(file, list);
        if (file.size > maxBytes) {
          item.fail("This file is larger than the " + formatSize(maxBytes) + " your plan allows.");
        } else {
          waiting.push(item);
        }
      }
      next();
    };

    const addChosen = () => {
      add(input.files);
      input.value = "";
    };
    input.addEventListener("change", addChosen);
    // The picker works without this script (the label opens it, so do Space and Enter on the
    // focused input): files chosen while the page was still loading are uploaded now.
    if (input.files.length) addChosen();
    form.addEventListener("submit", (event) => event.preventDefault());
    for (const type of ["dragenter", "dragover"]) {
      zone.addEventListener(type, (event) => {
        event.preventDefault();
        zone.classList.add("dragging");
      });
    }
    zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("dragging");
      add(event.dataTransfer.files);
    });
    // A file dropped beside the zone must not make the browser leave the page to open it.
    for (const type of ["dragover", "drop"]) {
      window.addEventListener(type, (event) => event.preventDefault());
    }
  }

  function setUpLiveStatus(section) {
    const progress = section.querySelector("progress");
    const text = section.querySelector(".status-text");
    const chip = document.querySelector("#job-status .chip");
    const jobId = section.dataset.jobId;
    watchJob(jobId, (job) => {
      progress.value = job.progress;
      chip.textContent = job.status;
      chip.className = "chip status status-" + job.status;
      if (job.status === "processing") text.textContent = "Processing: " + job.progress + " %";
      if (job.status === "completed" || job.status === "failed") window.location.reload();
    }, (message) => {
      text.textContent = message;
    });
  }

  async function copyField(button) {
    const field = document.getElementById(button.dataset.copy);
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = "Copied";
    } catch (error) {
      button.textContent = "Press Ctrl+C to copy";
    }
    setTimeout(() => { button.textContent = "Copy"; }, 2500);
  }

  /* Ask the server for a secret that the page does not carry, and show it in its field. */
  async function reveal(button) {
    const field = document.getElementById(button.dataset.target);
    const response = await fetch(button.dataset.reveal, {
      method: "POST", headers: {"X-XSRFToken": xsrfToken, Accept: "application/json"}});
    const body = await response.json();
    if (!response.ok) {
      field.value = body.error || "The secret could not be read.";
      return;
    }
    field.value = body.secret;
    button.hidden = true;
    const copy = button.parentElement.querySelector("button[data-copy]");
    if (copy) copy.hidden = false;
    field.focus();
    field.select();
  }

  document.addEventListener("click", (event) => {
    const copy = event.target.closest("button[data-copy]");
    if (copy) copyField(copy);
    const secret = event.target.closest("button[data-reveal]");
    if (secret) reveal(secret);
  });

  document.addEventListener("submit", (event) => {
    const question = event.target.dataset.confirm;
    if (question && !window.confirm(question)) event.preventDefault();
  });

  const uploadForm = document.getElementById("upload-form");
  if (uploadForm) setUpUploads(uploadForm);
  const liveStatus = document.getElementById("live-status");
  if (liveStatus) setUpLiveStatus(liveStatus);
  // Every handler is attached: what the page does from now on no longer races this script.
  document.body.dataset.ready = "true";
})();
